"""The admin's users and groups, with their permissions named in the reader's language.

Django writes a model's default permissions into the database in English when it migrates
("Can add card"), and its user and group forms list them as stored. Here they are named from
the model's translated verbose name and a translated action, so a Chinese (or any other)
reader reads "可以添加卡牌"; a permission a model declares itself keeps its stored name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission, User
from django.db.models import ManyToManyField
from django.http import HttpRequest
from django.utils.translation import pgettext_lazy

DEFAULT_PERMISSIONS = {
    "add": pgettext_lazy("a permission of the admin", "Can add {model}"),
    "change": pgettext_lazy("a permission of the admin", "Can change {model}"),
    "delete": pgettext_lazy("a permission of the admin", "Can delete {model}"),
    "view": pgettext_lazy("a permission of the admin", "Can view {model}"),
}
PERMISSION_LABEL = pgettext_lazy("a permission in the admin's list: its app, then what it allows",
                                 "{app} | {permission}")


def permission_label(permission: Permission) -> str:
    """A permission as the admin lists it, in the reader's language where Django made it."""
    model = permission.content_type.model_class()
    if model is None:
        return str(permission)
    meta = model._meta
    action = permission.codename.removesuffix(f"_{meta.model_name}")
    template = DEFAULT_PERMISSIONS.get(action)
    if template is None or permission.codename != f"{action}_{meta.model_name}":
        return str(permission)
    return PERMISSION_LABEL.format(app=meta.app_config.verbose_name,
                                   permission=template.format(model=meta.verbose_name))


def _labelled(field: forms.ModelMultipleChoiceField[Any] | None
              ) -> forms.ModelMultipleChoiceField[Any] | None:
    """The permission list of a user or group form, labelled by ``permission_label``."""
    if field is not None and field.queryset is not None \
            and field.queryset.model is Permission:
        field.label_from_instance = permission_label  # type: ignore[method-assign,assignment]
    return field


class TranslatedUserAdmin(UserAdmin):  # type: ignore[type-arg]
    def formfield_for_manytomany(self, db_field: ManyToManyField[Any, Any],
                                 request: HttpRequest,
                                 **kwargs: Any) -> forms.ModelMultipleChoiceField[Any] | None:
        return _labelled(super().formfield_for_manytomany(db_field, request, **kwargs))


class TranslatedGroupAdmin(GroupAdmin):
    def formfield_for_manytomany(self, db_field: ManyToManyField[Any, Any],
                                 request: HttpRequest | None = None,
                                 **kwargs: Any) -> forms.ModelMultipleChoiceField[Any] | None:
        return _labelled(super().formfield_for_manytomany(db_field, request, **kwargs))


admin.site.unregister(User)
admin.site.unregister(Group)
admin.site.register(User, TranslatedUserAdmin)
admin.site.register(Group, TranslatedGroupAdmin)
