"""Site-wide pages that belong to no app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what Cardlab is and where to go next."""
    return render(request, "home.html")
