"""Small template filters for the deck pages."""

from django import template

register = template.Library()


@register.filter
def percent(value: float, digits: int = 0) -> str:
    """0.7192 → "72 %" (or "71.9 %" with one digit)."""
    try:
        return f"{float(value) * 100:.{int(digits)}f} %"
    except (TypeError, ValueError):
        return "—"
