"""Changing an account."""

from __future__ import annotations

from django.contrib.auth.models import User


def user_email_set(*, user: User, email: str) -> None:
    """Keep ``email`` as the address password resets go to (empty: none)."""
    user.email = email
    user.save(update_fields=["email"])
