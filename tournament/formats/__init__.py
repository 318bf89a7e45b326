"""Date and time formats per language, where the product differs from Django's own."""
