"""Learn by doing, in the Voilà site, in headless Chromium: a new user starts the questions on a game page,
answers one and is told why with the rule it rests on (a link to the rule on the page); prints the rules card
alone (one or two pages) and downloads it as a PDF. The static site's twin is in tests/test_static_site.py."""
from __future__ import annotations

import base64
import re

from site_server import open_page


def answer_a_question(page) -> str:
    """Start the questions, answer the first one (every card for a pick-all question), return the feedback."""
    page.locator("button.ck-quiz-start").click()
    page.locator(".ck-quiz-q").wait_for(timeout=60000)
    page.locator("button.ck-choice").first.click()
    check = page.locator("button", has_text="Check my answer")
    if check.is_visible():
        check.click()
    feedback = page.locator(".ck-quiz-feedback")
    feedback.wait_for(timeout=30000)
    return feedback.inner_text()


def print_the_card(page, game: str) -> bytes:
    """Click "Print the rules card" (the browser's print dialog stubbed: it records the call), then print the
    page as the print style sheet gives it while the card is the target."""
    page.evaluate("() => { window.__printed = []; window.print = () => window.__printed.push("
                  "[document.body.classList.contains('ck-printing'), "
                  "!!document.querySelector('.ck-print-target')]); }")
    page.locator("button.ck-print-button", has_text="Print the rules card").click()
    assert page.evaluate("() => window.__printed") == [[True, True]]
    page.evaluate(f"() => {{ document.getElementById('ck-card-{game}').classList.add('ck-print-target');"
                  "document.body.classList.add('ck-printing'); }")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    page.emulate_media(media="screen")
    page.evaluate("() => document.body.classList.remove('ck-printing')")
    return pdf


def pages_of(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_a_new_user_answers_a_question_is_told_why_and_takes_the_rules_along(site_url, chromium):
    page = open_page(chromium, f"{site_url}/voila/render/sieben.ipynb", start=False)
    text = answer_a_question(page)
    assert text.startswith(("Right.", "Not quite.")) and len(text) > 40
    assert page.locator(".ck-quiz-head", has_text="so far").is_visible()   # the running score
    link = page.locator(".ck-quiz-feedback a.ck-rule-link").first
    rule = link.inner_text()
    assert link.get_attribute("href") == f"#{rule}" and page.locator(f"section[id='{rule}']").count() == 1
    page.locator("button", has_text="Answer sheet").click()          # the teacher's sheet prints alone too
    sheet = page.locator(".ck-sheet")
    sheet.wait_for(timeout=30000)
    assert sheet.locator("ol > li").count() == 8 and "set 1: the answers" in sheet.inner_text()
    page.evaluate("() => { window.__sheet = []; window.print = () => window.__sheet.push("
                  "document.querySelector('.ck-print-target').id); }")
    sheet.locator("button.ck-print-button").click()
    assert page.evaluate("() => window.__sheet") == ["ck-sheet-sieben"]
    page.evaluate("() => window.dispatchEvent(new Event('afterprint'))")   # the print dialog closed: all shown
    assert page.evaluate("() => !document.querySelector('.ck-print-target') && "
                         "!document.body.classList.contains('ck-printing')")
    pdf = print_the_card(page, "sieben")
    assert 1 <= pages_of(pdf) <= 2
    href = page.locator("a.ck-card-download").get_attribute("href")
    assert href.startswith("data:application/pdf;base64,")
    assert base64.b64decode(href.split(",", 1)[1]).startswith(b"%PDF-")
    assert page.errors == [] and page.external == []
    page.context_.close()
