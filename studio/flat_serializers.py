"""Input serializers of plain fields whose fields are copied shallowly for each request.

DRF gives every serializer instance its own fields by deep-copying the declared ones, and a field's deep copy builds
the field again from deep copies of its constructor's arguments (validators, messages): ~70 % of the CPU of
validating the booking rush's bodies (0.3-0.45 ms a request for the hold's and the order's fifteen fields). A field
of plain values keeps nothing of a request but its binding (name, parent, source), which `bind` sets on the copy,
so a shallow copy of the declared field is enough: the validators, the messages and the choices are shared, read
only. A nested serializer or a field with a child (a list, a dict) keeps state of its own: `FlatInput` refuses them
when the class is created.
"""

import copy

from rest_framework import serializers

_NOT_FLAT = (serializers.BaseSerializer, serializers.ListField, serializers.DictField, serializers.HStoreField)


class FlatInput:
    """Mixin, before `serializers.Serializer` (or a subclass of it): the fields are shallow copies of the declared
    ones. Validation, its answer and its error messages are DRF's own (payments/tests/test_booking_rush_work.py
    compares them with the deep-copied fields' on good and bad bodies)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, field in cls._declared_fields.items():
            if isinstance(field, _NOT_FLAT) or hasattr(field, "child"):
                raise TypeError(f"{cls.__name__}.{name} is not a plain field: FlatInput would share its state")

    def get_fields(self):
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}
