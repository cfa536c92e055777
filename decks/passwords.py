"""Passwords: Django's reset by e-mail (a link valid for PASSWORD_RESET_TIMEOUT) and change,
under /accounts/. Reset requests are throttled per address; the answer never says whether an
address has an account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy

from decks.throttles import RESET_PER_IP, client_ip, hit

PASSWORD_CHANGED = gettext_lazy("Your password is changed.")


class ResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def post(self, request, *args, **kwargs):
        message = hit(RESET_PER_IP, client_ip(request))
        if message:
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, message)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class ChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("profile")

    def form_valid(self, form):
        messages.success(self.request, PASSWORD_CHANGED)
        return super().form_valid(form)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


reset = ResetView.as_view()
reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="registration/password_reset_done.html")
reset_confirm = ResetConfirmView.as_view()
reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="registration/password_reset_complete.html")
change = ChangeView.as_view()
