"""Tests run against the installed envpool wheel, never the source tree.

The source tree has no native modules; when pytest runs from the repository
root, drop the root from sys.path so `import envpool` finds the wheel.
"""

import os
import sys

_ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]
