"""Accounts, mounted at /accounts/ (Django's default LOGIN_URL is /accounts/login/)."""

from django.urls import path

from accounts import passwords, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("password/reset/", passwords.reset, name="password_reset"),
    path("password/reset/sent/", passwords.reset_done, name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", passwords.reset_confirm,
         name="password_reset_confirm"),
    path("password/reset/done/", passwords.reset_complete, name="password_reset_complete"),
    path("password/change/", passwords.change, name="password_change"),
]
