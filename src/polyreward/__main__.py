import sys

from polyreward.cli import main

sys.exit(main())
