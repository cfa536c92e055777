"""Catalogue pages, mounted at /cards/."""

from django.urls import path

from cards import views

app_name = "cards"

urlpatterns = [
    path("", views.card_list, name="list"),
    path("help/", views.query_help, name="help"),
    path("vocabulary/", views.vocabulary_page, name="vocabulary"),
    path("<str:code>/", views.card_detail, name="detail"),
    path("<str:code>/image.svg", views.card_image, name="image"),
]
