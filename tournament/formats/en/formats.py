"""English dates as the product has always shown them: day before month, 24-hour clock.

A room of facilitators from many countries reads "23 November 2026, 14:05" the same way;
Django's English formats are American ("Nov. 23, 2026, 2:05 p.m.").
"""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
