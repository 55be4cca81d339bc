"""Tests of the text basics (app/language)."""
