"""Accounts, mounted at /accounts/ (Django's default LOGIN_URL is /accounts/login/)."""

from django.urls import path

from decks import accounts

app_name = "accounts"

urlpatterns = [
    path("signup/", accounts.sign_up, name="signup"),
    path("login/", accounts.login_view, name="login"),
    path("logout/", accounts.logout_view, name="logout"),
]
