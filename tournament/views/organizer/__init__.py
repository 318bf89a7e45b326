"""The organizer's views (signed in, on the laptop), one module per feature of the console,
each holding its pages (GET) and its actions (POST):

    console     the event's one page and its live sections
    events      the events list, a new event, settings, archive, delete, finish, reopen
    roster      players' names, a player's page, status, rename, remove
    plan        the table plan and the tables' variants
    tables      one table's page, its phone link, its rule sheet's language
    games       adding, settling and deleting games, late reports, the corrections log
    paper       typing in a table's paper tally sheet
    rounds      the next phase, the clock, closing a round and undoing it
    debrief     starting the debrief, its projector screens, the printable report
    questions   the debrief questions' editor
    team        co-facilitators: invite, revoke, the invitation link
    notes       observers' notes, and which ones the projector shows
    radar       the tables that need the facilitator now
    records     downloads (JSON, CSV) and "Back up now"
    kit         the printable table kit and tally sheets

How each view reaches its event, and the refusals, are tournament.views.access; how an
action answers (back to its page, with its message) is answers.py. The URLs are
tournament.urls.organizer and tournament.urls.kit.
"""
