"""What ``help()`` shows of a record model: its fields and their docs first.

pydantic keeps a model's fields out of the class (``help()`` lists none of them) and
gives it a signature of validator objects. :class:`ModelDocMeta`, the models' metaclass,
gives a model class a docstring that ends with its fields (name, type, default and the
field's own docstring) and a signature in the model's words (``Card``, ``CardSet``,
``Contract | None``), both worked out when first asked for (``help()``,
``inspect.signature``), so that importing the models costs nothing more.

>>> from tarotnotation.records import Bid
>>> print(Bid.__doc__)
One call of the auction: a contract, or ``None`` for a pass (``"pass"`` in JSON).
<BLANKLINE>
Fields:
    glyph: str | None = None
        One of ``! ? !! ?? !? ?!``, as in PGN.
    comments: tuple[str, ...] = ()
        Free-text comments, in the order they were written.
    contract: Contract | None (None: pass)
    seat: str | None = None
        The seat that spoke, when written; otherwise it follows from the order of speech.
>>> import inspect
>>> print(inspect.signature(Bid))
(*, glyph: 'str | None' = None, comments: 'tuple[str, ...]' = (), contract: 'Contract | None...
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from pydantic._internal._model_construction import ModelMetaclass

if TYPE_CHECKING:
    import inspect

    from pydantic import BaseModel

__all__ = ["ModelDocMeta", "own_description"]

#: The record's type aliases in the words of the model.
_WORDS: Final = (
    ("CardSetField", "CardSet"), ("CardField", "Card"), ("ContractField", "Contract"),
    ("BidField", "Contract | None (None: pass)"), ("PointsField", "Points"),
    ("BoutsField", "int"), ("SeatId", "str"), ("Glyph", "str"),
    ("Declaration", "Poignee | ChelemAnnouncement | Misere"),
)


def _words(annotation: str) -> str:
    for alias, words in _WORDS:
        annotation = re.sub(rf"\b{alias}\b", words, annotation)
    return annotation.replace("Contract | None (None: pass) | None", "Contract | None")


def _annotations(cls: type[BaseModel]) -> dict[str, str]:
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            if name in cls.model_fields:
                out[name] = _words(annotation if isinstance(annotation, str)
                                   else getattr(annotation, "__name__", str(annotation)))
    return out


def _field_docs(cls: type[BaseModel]) -> dict[str, str]:
    """The docstring under each field, from the classes' source (none when not found)."""
    import ast
    import inspect
    import itertools
    import textwrap

    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".")[0] != "tarotnotation":
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in itertools.pairwise(body):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _default(cls: type[BaseModel], name: str) -> str:
    field = cls.model_fields[name]
    return "" if field.is_required() else f" = {field.default!r}"


def _doc(cls: type[BaseModel], doc: str | None) -> str:
    import inspect

    docs = _field_docs(cls)
    lines = [inspect.cleandoc(doc or ""), "", "Fields:"]
    for name, annotation in _annotations(cls).items():
        lines.append(f"    {name}: {annotation}{_default(cls, name)}")
        lines.extend(f"        {line}" if line else "" for line in docs.get(name, "").splitlines())
    return "\n".join(lines).strip("\n")


def _signature(cls: type[BaseModel]) -> inspect.Signature:
    import inspect

    params = [inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
        default=(inspect.Parameter.empty if cls.model_fields[name].is_required()
                 else cls.model_fields[name].default))
        for name, annotation in _annotations(cls).items()]
    return inspect.Signature(params)


def own_description(schema: dict[str, Any], cls: type) -> None:
    """A model's JSON Schema ``description``: its own docstring only, as written (the
    fields are the schema's ``properties``), for ``model_config``'s
    ``json_schema_extra``."""
    import inspect

    own = vars(cls).get("__doc__")
    if own:
        schema["description"] = inspect.cleandoc(own)
    else:
        schema.pop("description", None)


class ModelDocMeta(ModelMetaclass):
    """The record models' metaclass: pydantic's, with a class docstring that ends with
    the fields and a signature in the model's words, both worked out when first asked
    for (``help()``, ``inspect.getdoc``, ``inspect.signature``) and kept."""

    @property
    def __doc__(self) -> str:  # type: ignore[override]
        done: str | None = vars(self).get("_fields_doc")
        if done is None:
            done = _doc(self, vars(self).get("__doc__"))  # type: ignore[arg-type]
            type.__setattr__(self, "_fields_doc", done)
        return done

    @property
    def __signature__(self) -> inspect.Signature:
        done: inspect.Signature | None = vars(self).get("_fields_signature")
        if done is None:
            done = _signature(self)  # type: ignore[arg-type]
            type.__setattr__(self, "_fields_signature", done)
        return done

    @__signature__.setter
    def __signature__(self, value: object) -> None:
        # (pydantic sets its own, of validator objects: kept aside, unused)
        type.__setattr__(self, "_pydantic_signature", value)
