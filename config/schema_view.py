"""``/api/schema/``: the OpenAPI schema, generated once per language in each process."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response


class StoredSchemaView(SpectacularAPIView):
    """``/api/schema/``, generated once per language and API version in each process (walking
    every view's serializers took a third of a second a request; the schema changes only with
    the code, which a deployment restarts)."""

    _stored: dict[tuple[str, str | None], dict[str, Any]] = {}

    # drf-spectacular leaves its view's helpers unannotated (the ignores below).
    def _get_schema_response(self, request: Request) -> Response:
        version = (self.api_version or request.version
                   or self._get_version_parameter(request))  # type: ignore[no-untyped-call]
        key = (translation.get_language(), version)
        data = self._stored.get(key)
        if data is None:
            generator = self.generator_class(urlconf=self.urlconf, api_version=version,
                                             patterns=self.patterns)
            data = self._stored[key] = generator.get_schema(request=request,
                                                            public=self.serve_public)
        filename = self._get_filename(request, version)  # type: ignore[no-untyped-call]
        return Response(data=data, headers={
            "Content-Disposition": f'inline; filename="{filename}"'})
