# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
import sys

from invctl.cli import main

sys.exit(main())
