"""Turning uploaded documents into text."""
