"""Passwords: Django's reset by e-mail (a link valid for PASSWORD_RESET_TIMEOUT) and change,
under /accounts/.

Reset requests are throttled per client address (a 429 saying how long to wait), and the mails
per recipient: past a few an hour to one inbox, whoever asks, no more mail goes there but the
page answers as always, so it never says whether an address has an account. A wrong current
password on the change form counts per user and per address; past the limit the form is
refused (429, with the wait) even with the right one."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy

from accounts.throttles import (
    PASSWORD_CHANGE_FAILURES_PER_IP,
    PASSWORD_CHANGE_FAILURES_PER_USER,
    RESET_PER_IP,
    RESET_PER_RECIPIENT,
)
from common.throttles import Limit, blocked_wait, client_ip, hit, hit_wait, refused

PASSWORD_CHANGED = gettext_lazy("Your password is changed.")
EMAIL_LABEL = gettext_lazy("E-mail address")


class ResetForm(PasswordResetForm):
    """Django's reset form, its field labelled in the site's words, so that the page renders
    it with the accounts' field group (forms/field_paragraph.html)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = EMAIL_LABEL


class ResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"
    form_class = ResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        found = hit_wait(RESET_PER_IP, client_ip(request))
        if found:
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, found[0])
            return refused(self.render_to_response(self.get_context_data(form=form)), found[1])
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # Counted whether or not the address has an account; past the limit, the same answer.
        if hit(RESET_PER_RECIPIENT, form.cleaned_data["email"].strip().casefold()):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)

    def form_invalid(self, form: PasswordResetForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_invalid(self, form: SetPasswordForm[User]) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


def _change_limits(request: HttpRequest) -> list[tuple[Limit, str]]:
    return [(PASSWORD_CHANGE_FAILURES_PER_USER, str(request.user.pk)),
            (PASSWORD_CHANGE_FAILURES_PER_IP, client_ip(request))]


class ChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("profile")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        for limit, ident in _change_limits(request):
            found = blocked_wait(limit, ident)   # the sentence and Retry-After: one wait
            if found:
                message, wait = found
                # The view is login_required: the user is signed in. Nothing is checked.
                form = self.get_form_class()(user=cast(User, request.user), data={})
                form.errors.clear()
                form.add_error(None, message)
                response = self.render_to_response(self.get_context_data(form=form))
                return refused(response, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        messages.success(self.request, PASSWORD_CHANGED)
        return super().form_valid(form)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if form.has_error("old_password", "password_incorrect"):
            for limit, ident in _change_limits(self.request):
                hit(limit, ident)
        return self.render_to_response(self.get_context_data(form=form), status=400)


reset = ResetView.as_view()
reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="registration/password_reset_done.html")
reset_confirm = ResetConfirmView.as_view()
reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="registration/password_reset_complete.html")
change = ChangeView.as_view()
