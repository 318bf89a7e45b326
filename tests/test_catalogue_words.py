"""The translator's review of the catalogues, kept: words that read wrong in context do
not come back. Each case names the wording refused and why.

Terms: see tests/test_catalogues.py (catalogue, message).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def translations(language: str) -> list[tuple[str, str]]:
    """Every (message, translation) of a catalogue, each plural form on its own."""
    po = polib.pofile(str(REPO_ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    pairs = []
    for entry in po:
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if text:
                pairs.append((entry.msgid, text))
    return pairs


REFUSED = [
    # French: a tent card is a chevalet (a carte is a playing card); a table's link is for
    # phones, not one phone's; a "jeu" is a game; a count is a nombre, not a numéro.
    ("fr", "Une carte a disparu", "the tent card is a chevalet"),
    ("fr", "sur sa carte ci-dessous", "the console's card is not a playing card"),
    ("fr", "lien du téléphone", "a table's phone link is for every phone"),
    ("fr", "jeu de différences", "a jeu is a game"),
    ("fr", "avec leur numéro", "a count is a nombre"),
    ("fr", "que observateur", "French elides que before a vowel"),
    ("fr", "en tant que %(", "a name or a role may start with a vowel: no elision then"),
    ("fr", "indique que %(", "a name may start with a vowel: no elision then"),
    # Spanish: "low" belongs to the trump; fallar outside the rule sheet reads "fail";
    # "unos 1 min" is plural; a tie is on the number of tricks.
    ("es", "por baja que sea", "the trump is low, not the led card"),
    ("es", "por alta que sea", "the trump is high, not the led card"),
    ("es", "Mesas que pueden fallar", "outside the rule sheet fallar reads fail"),
    ("es", "mesas que pueden fallar", "outside the rule sheet fallar reads fail"),
    ("es", "unos %(minutes)s", "unos 1 min"),
    ("es", "empatan con más bazas", "they tie on the number of tricks"),
    # German: over-trumping is not playing higher; a Spielanleitung is the game's rules,
    # which are taken away; melden is reporting games; a sentence needs its subject.
    ("de", "Überstechzwang", "it means over-trumping"),
    # "A trump played after another must beat it": only whoever plays a trump must beat one;
    # "liegt schon ein Trumpf im Stich, musst du ..." forced everyone to trump.
    ("de", "musst du ihn überstechen", "it makes over-trumping compulsory"),
    ("de", "Trumpf im Stich, musst du", "it makes over-trumping compulsory"),
    # The clause's name has no direction: at an ace-low table the best card is the lowest.
    ("de", "Höherspielpflicht", "an ace-low table plays lower"),
    ("fr", "obligation de monter", "an ace-low table plays lower"),
    ("es", "obligación de montar", "an ace-low table plays lower"),
    # du throughout (see also test_the_catalogue_says_du_and_tu_never_sie_or_usted).
    ("de", "Ihre Antwort", "the phone says du: deine Antwort"),
    # The review of 2026-11-28: the catalogue's own terms, and plain slips.
    ("fr", "liens des téléphones", "a table's links are pour téléphones"),
    ("fr", "frustré·e", "no other entry uses an inclusive form"),
    ("es", "empatan con menos bazas", "they tie on the number of tricks"),
    ("es", "Quien organiza", "the catalogue's term is el organizador"),
    ("es", "enlaces de los teléfonos", "the catalogue's term is enlaces de mesa"),
    ("es", "en el último minuto", "reads 'at the last minute'"),
    ("es", "y este es %(new)s más", "reads 'and this one is N more'"),
    ("de", "Abwesend melden", "melden is the word for reporting games"),
    ("de", "als anwesend gemeldet", "melden is the word for reporting games"),
    ("de", "Melde zuerst", "melden is the word for reporting games"),
    ("de", "ist anwesend: kommt", "a sentence needs its subject"),
    ("de", "Organisation", "the catalogue's term is die Spielleitung"),
    ("de", "Projektors", "the catalogue's term is der Beamer"),
    ("de", "Dieses Telefon", "the catalogue's term is das Handy"),
    ("de", "Abschluss rückgängig", "the console's button is Schließen"),
    ("de", "Handy-Links", "the catalogue's term is Tisch-Links"),
    ("de", "Haben mehrere gleich viele Stiche,", "a tie for the most tricks, not any tie"),
    ("de", "Der Beamer ist weitergegangen", "a projector does not walk"),
    ("de", "dann den Turnierleitfaden", "a nominative in a list of pages"),
    ("de", "(öffnet in einem neuen Tab)", "öffnen needs sich here"),
    ("de", "Spielanleitung", "the players' guide states no rules of play"),
    ("de", "Anwesend melden", "melden is the word for reporting games"),
    ("de", "sofern jemand keine andere Sprache", "reads 'unless someone picks no other'"),
    # The review of 2026-12-07. French: montrer une carte reveals it (pointing is désigner);
    # absent is the roster's status (a screen not seen is hors ligne); vous throughout.
    ("fr", "ontrez la carte", "montrer reveals a card: désigner"),
    ("fr", "montrent des cartes", "montrer reveals a card: désigner"),
    ("fr", "montré des cartes", "montrer reveals a card; after jamais, de"),
    ("fr", "jamais montré", "montrer reveals a card: désigner"),
    ("fr", "Geste\xa0: montrer", "montrer reveals a card, and 'le as'"),
    ("fr", "Joueurs absents", "absent is the roster's status: hors ligne"),
    ("fr", "bsents depuis", "absent is the roster's status: hors ligne"),
    ("fr", "bsent depuis", "absent is the roster's status: hors ligne"),
    ("fr", "Ta réponse", "the catalogue says vous"),
    ("fr", "dans l’ordre pris", "dans l’ordre où ils ont été pris"),
    ("fr", "Rejouer un pli", "reads 'play it again': revoir"),
    ("fr", "leurs reprises", "reads 'play it again': revoir"),
    ("fr", "Le code QR", "the catalogue says QR code"),
    ("fr", "tenir une place", "occuper une place"),
    ("fr", "joue d’abord", "c’est à … de jouer"),
    ("fr", "Ce coup n’a pas de clé valide", "a player reads 'your move is not valid'"),
    # Spanish: jugada por is "played by"; guardadas reads "saved"; ausente is the roster's
    # status; the catalogue's terms.
    ("es", "jugada por %(name)s", "reads 'played by': en nombre de"),
    ("es", "Jugar por %(name)s", "reads 'play by': en nombre de"),
    ("es", "Las reglas se han guardado", "reads 'the rules are saved'"),
    ("es", "Jugadores ausentes", "ausente is the roster's status: sin conexión"),
    ("es", "usentes desde", "ausente is the roster's status: sin conexión"),
    ("es", "usente desde", "ausente is the roster's status: sin conexión"),
    ("es", "móvil", "the catalogue's term is teléfono"),
    ("es", "hoja de anotación", "the catalogue's term is hoja de tanteo"),
    ("es", "mesa de inicio", "the catalogue's term is mesa inicial"),
    ("es", "Decidir:", "the organizer resuelve, as a dispute"),
    ("es", "ecídela", "the organizer resuelve, as a dispute"),
    ("es", "puedes decidirla", "the organizer resuelve, as a dispute"),
    ("es", "orden ganado", "en el orden en que se ganaron"),
    ("es", "Repetir una baza", "reads 'play a trick twice'"),
    ("es", "baza repetida", "reads 'a trick played twice'"),
    ("es", "Wi-Fi", "the catalogue writes wifi"),
    ("es", "p. ej. 0.2", "a Spanish decimal comma"),
    ("es", "Esta jugada no tiene una clave válida", "a player reads 'your move is not valid'"),
    # German: a trick the organizer settled had no Einigung; strittig is a disputed game's
    # word, not a trick's; du throughout; the catalogue's terms.
    ("de", "bis zur Einigung", "a settled trick had no agreement: Klärung"),
    ("de", "dauerte die Einigung", "a settled trick had no agreement: Klärung"),
    ("de", "längste Einigung", "a settled trick had no agreement: Klärung"),
    ("de", "trittige Stiche", "strittig is a disputed game: Stiche mit Uneinigkeit"),
    ("de", "Sekunde strittig", "strittig is a disputed game: ohne Einigung"),
    ("de", "Sekunden strittig", "strittig is a disputed game: ohne Einigung"),
    ("de", "s s strittig", "strittig is a disputed game: ohne Einigung"),
    ("de", "strittiger Stich", "strittig is a disputed game: ohne Einigung"),
    ("de", "Ihr dürft", "du throughout: Reden ist noch erlaubt"),
    ("de", "Lernphase", "the catalogue's term is Lernzeit"),
    ("de", "Oberster Tisch", "the catalogue's term is Höchster Tisch"),
    ("de", "Zählzettel", "the catalogue's term is Spielzettel"),
    ("de", "Austeil", "the catalogue's term is Kartenverteilung"),
    ("de", "Ohne es treffen", "reads as a missing subject: Fehlt es"),
    ("de", "nur ihr.", "reads as formal or plural you"),
    ("de", "weggelegt", "the phone page says weggeräumt"),
    ("de", "vorbereitet…", "a space before … as in the other status texts"),
    ("de", "startet…", "a space before … as in the other status texts"),
    ("de", "beendet…", "a space before … as in the other status texts"),
    ("de", "Dieser Zug hat keinen gültigen", "a player reads 'your move is not valid'"),
]


@pytest.mark.parametrize(("language", "wording", "why"), REFUSED)
def test_a_refused_wording_is_not_in_the_catalogue(language, wording, why):
    found = [msgid for msgid, text in translations(language) if wording in text]
    assert not found, f"{language}: {wording!r} ({why}) in the translation of {found}"


# The catalogues speak to everyone as du and tú. In German a capital Sie or Ihr- inside a
# sentence (or "versuchen Sie") is the formal you: the pronoun "they" is lowercase there.
GERMAN_FORMAL_YOU = re.compile(
    r"(?<![.:;!?–—„“(]\s)(?<!^)\b(?:Sie|Ihnen|Ihre?[mnrs]?)\b|\b\w+en Sie\b"
)
SPANISH_USTED = re.compile(
    r"\bustedes?\b|\ble esperan?\b|\b(?:Vuelva|Libere|Compruebe|Mueva|Avise|Recargue)\b"
)


@pytest.mark.parametrize(("language", "formal"), [("de", GERMAN_FORMAL_YOU), ("es", SPANISH_USTED)])
def test_the_catalogue_says_du_and_tu_never_sie_or_usted(language, formal):
    found = [text for _msgid, text in translations(language) if formal.search(text)]
    assert not found, f"{language}: formal address in {found[:5]}"


def test_german_sentences_about_a_joining_player_have_a_subject():
    for msgid, text in translations("de"):
        if msgid.startswith("They join the lowest table"):
            assert not text.startswith("Kommt "), text


def test_french_writes_a_space_before_a_percent_sign_and_a_colon():
    for msgid, text in translations("fr"):
        if "%(percent)s%%" in msgid:
            assert "%(percent)s %%" in text or "%(percent)s\xa0%%" in text, text
        if msgid.endswith("%(game)s:"):
            assert text.endswith((" :", "\xa0:")), text


def test_french_double_punctuation_and_guillemets_hold_with_a_non_breaking_space():
    # A plain space lets a line break leave ":" or "»" alone at the start of the next line.
    plain = re.compile(r" [:;?!»]|« ")
    found = [text for _msgid, text in translations("fr") if plain.search(text)]
    assert not found, f"fr: plain space before : ; ? ! » or after « in {found[:5]}"
