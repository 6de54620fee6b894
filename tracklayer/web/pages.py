"""The pages (Jinja2 with htmx and Alpine.js)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
