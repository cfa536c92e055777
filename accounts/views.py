"""Sign up, log in and log out, with Django's auth (password validators on sign-up) and
throttles: log-in attempts per address, sign-ups per address; failed log-ins (per name and
address, per address, per name) are counted by the authentication backend (``accounts.auth``) for
every door. A refusal is a 429 with the wait in its message and in ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.auth import login_blocked
from accounts.throttles import LOGIN_PER_IP, SIGNUP_PER_IP
from common.throttles import client_ip, hit_wait, refused


def _next(request: HttpRequest, default: str = "/decks/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return default


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(required=False, label=_("Email"),
                             help_text=_("Optional; only for password resets (you can add it "
                                         "later on your profile)."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """Create an account (Django's password validators apply) and log straight in."""
    form = SignUpForm(request.POST or None)
    status, found = 200, None
    if request.method == "POST":
        found = hit_wait(SIGNUP_PER_IP, client_ip(request))
        if found:
            form.add_error(None, found[0])
        elif form.is_valid():
            user = form.save()
            login(request, user, backend="accounts.auth.ThrottledModelBackend")
            return redirect(_next(request))
        else:
            status = 400
    response = render(request, "registration/signup.html",
                      {"form": form, "next": _next(request)}, status=status)
    return refused(response, found[1]) if found else response


class ThrottledLoginView(LoginView):
    """Django's log-in, refusing with 429 after too many attempts from one address or too many
    failures for one user name; a failed log-in answers 400 with the form's message."""

    form_class = AuthenticationForm
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        found = hit_wait(LOGIN_PER_IP, client_ip(request)) or login_blocked(
            request, request.POST.get("username"))
        if found:
            # Bound without the password, so refusing never checks it (nor counts a failure).
            form = self.get_form_class()(request, data={"username": request.POST.get(
                "username", "")})
            form.errors.clear()
            form.add_error(None, found[0])
            return refused(self.render_to_response(self.get_context_data(form=form)), found[1])
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def get_default_redirect_url(self) -> str:
        return _next(self.request)


login_view = ThrottledLoginView.as_view()
logout_view = LogoutView.as_view(next_page="/decks/")
