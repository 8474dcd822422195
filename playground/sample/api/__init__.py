"""The bookshop API."""
