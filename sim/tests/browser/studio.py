"""The studio's page in a real browser (issue 37): headless Chromium driven
through chromedriver with Selenium. CI's browser step runs it
(`.ci/run`); by hand:

    python3 -m venv target/studio-venv && target/studio-venv/bin/pip install selenium
    target/studio-venv/bin/python sim/tests/browser/studio.py target/release/mafia [SHOTS_DIR]

It starts `mafia studio` on a free loopback port, loads the page, edits a
role count, sees a bad value refused beside its field, runs the setup and
reads a rate and its interval, compares two variants, sweeps a heatmap,
asks the win odds of a mid-game state,
resolves a night and continues to the next, and takes screenshots of the
main screens into SHOTS_DIR (default docs/src/studio/). Every step waits
for what the page shows, never for a time.
"""

import os
import re
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

MAFIA = sys.argv[1] if len(sys.argv) > 1 else "target/release/mafia"
SHOTS = sys.argv[2] if len(sys.argv) > 2 else "docs/src/studio"
WAIT = 90  # the most seconds any one step may take (a cap, not a timing)


def main():
    out_dir = tempfile.mkdtemp(prefix="studio-out-")
    server = subprocess.Popen(
        [MAFIA, "studio", "--port", "0", "--no-open", "--out-dir", out_dir],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        url = re.search(r"http://[0-9.:]+/", line).group(0)
        run(url, out_dir)
    finally:
        server.terminate()
        server.wait()
    print("browser test: ok")


def run(url, out_dir):
    o = webdriver.ChromeOptions()
    o.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=o)
    wait = WebDriverWait(d, WAIT)
    byid = lambda i: d.find_element(By.ID, i)  # noqa: E731

    def shot(name):
        os.makedirs(SHOTS, exist_ok=True)
        d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(os.path.join(SHOTS, name + ".png"))

    def type_into(i, text):
        e = byid(i)
        e.clear()
        e.send_keys(text)

    try:
        d.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        wait.until(lambda d: "10 players" in byid("setup-status").text)

        # Edit a role count: one more citizen, checked by the server.
        type_into("role-citizen", "7")
        wait.until(lambda d: "11 players" in byid("setup-status").text)
        shot("setup")

        # A bad value is refused beside its field, with the reader's message.
        type_into("role-don", "2")
        wait.until(lambda d: byid("err-roles-don").text != "")
        assert "bad" in byid("role-don").get_attribute("class")
        print("refused beside roles.don:", byid("err-roles-don").text)
        shot("setup-error")
        type_into("role-don", "1")
        wait.until(lambda d: byid("err-roles-don").text == "" and "11 players" in byid("setup-status").text)

        # Play it and read a rate and its interval.
        byid("tab-play").click()
        type_into("games", "20000")
        byid("run").click()
        wait.until(lambda d: byid("run-message").get_attribute("data-status") == "complete")
        rate = float(byid("rate-town").text.rstrip("%"))
        lo, hi = float(byid("lo-town").text), float(byid("hi-town").text)
        assert lo < rate < hi, (lo, rate, hi)
        print(f"town {rate}% [{lo}, {hi}]")
        assert d.find_elements(By.CSS_SELECTOR, "table[data-table=roles]"), "the roles table"
        shot("play")

        # Compare two variants on the same games, at 20% absence (a rule
        # of the setup: back on the setup tab).
        byid("tab-setup").click()
        type_into("rule-absence", "0.2")
        wait.until(lambda d: "11 players" in byid("setup-status").text)
        byid("tab-compare").click()
        type_into("cmp-games", "8192")
        byid("compare-run").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#cmp-sentence p"))
        sentence = byid("cmp-sentence").text
        assert "gives the town +" in sentence and "absence=0.2" in sentence, sentence
        print("compare:", sentence.splitlines()[0])
        type_into("sweep-games", "2048")
        byid("sweep-run").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#heatmap svg"))
        shot("compare")
        # Win odds of the example mid-game state.
        type_into("odds-games", "2000")
        byid("odds-run").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#odds-out table"))
        assert "town" in byid("odds-out").text

        # Resolve a night, then continue with the next night's carry-over.
        byid("tab-night").click()
        byid("resolve").click()
        wait.until(lambda d: "Deaths at dawn" in byid("night-out").text)
        assert len(d.find_elements(By.CSS_SELECTOR, "#nf-seats select")) == 7
        shot("night")
        byid("night-next").click()
        assert "night = 2" in byid("night-text").get_attribute("value")
        # The form shows the next night, with last night's dead carried over.
        assert byid("nf-night").get_attribute("value") == "2"
        assert "6" in d.find_element(By.CSS_SELECTOR, "[data-carry=dead]").get_attribute("value")
        # A move made in the form: the Boss's kill nick on seat 5.
        byid("nf-add-move").click()
        cells = d.find_elements(By.CSS_SELECTOR, "#nf-moves tr:last-child input")
        cells[0].send_keys("boss")
        cells[4].send_keys("5")
        assert "kill = 5" in byid("night-text").get_attribute("value")
        byid("resolve").click()
        wait.until(lambda d: "Deaths at dawn" in byid("night-out").text)
        assert "5 (detective)" in byid("night-out").text.split("Deaths at dawn")[1], byid("night-out").text
    finally:
        d.quit()


if __name__ == "__main__":
    main()
