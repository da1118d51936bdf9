"""ipywidgets UI for cardkit, game-agnostic: it sees only cardkit's public protocol and views."""
from .play import Play, PlayTable, option_controls  # noqa: F401
from .render import cards_html, use_css, view_html  # noqa: F401
from .replay import Replay, replay_states  # noqa: F401
from .rules import RuleCard, Rules, RuleTable, rule_html  # noqa: F401
from .index import GameIndex, RuleFinder  # noqa: F401
from .sources import SourceTexts  # noqa: F401
from .exercises import TestYourself  # noqa: F401
from .example import Example  # noqa: F401
from .rulecard import RulesCard  # noqa: F401

use_css()

# the static site, in the visitor's browser: fill the folder where a play table keeps its game across a reload
from . import browser_store  # noqa: E402

browser_store.start()
