"""What the API answers to OPTIONS: the endpoint's name, description and media types.

DRF's default (``SimpleMetadata``) also describes the writable fields, and to do so for PUT it
fetches the object through ``get_object()``: on views that find their object through a selector
(every deck and run view here) that failed with a 500, and on views that do not it revealed
fields of objects the client may not see. The OpenAPI schema at /api/schema/ is the description
of every field, so OPTIONS leaves it there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import SimpleMetadata

if TYPE_CHECKING:
    # Annotations only: DRF's settings import this module while rest_framework.views loads.
    from rest_framework.request import Request
    from rest_framework.views import APIView


class EndpointMetadata(SimpleMetadata):
    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
            "schema": "/api/schema/",
        }
