"""`python -m nash_metric.cli`, the same as `nash` and `python -m nash_metric`."""

import sys

from . import main

sys.exit(main())
