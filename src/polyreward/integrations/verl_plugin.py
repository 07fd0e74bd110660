"""verl plugin: loaded by ``import verl`` through this package's ``verl.plugins`` entry point.

verl 0.9.1 imports every entry point of the group ``verl.plugins`` when it is imported
(``VERL_USE_EXTERNAL_PLUGINS=auto``, the default), in every process, including the Ray driver
that computes advantages. Importing this module registers the polyreward advantage estimators
(:func:`polyreward.integrations.verl.register`). verl only logs plugin failures at DEBUG level, so
a failure here is reported as a warning.
"""

from __future__ import annotations

import logging

try:
    from polyreward.integrations.verl import register

    register()
except Exception as exc:  # never break `import verl`; say why the estimators are missing
    logging.getLogger("polyreward.integrations.verl").warning("polyreward verl plugin not registered: %s", exc)
