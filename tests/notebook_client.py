"""What every test that runs a notebook with nbclient gives it.

nbclient waits 4 s for a cell's outputs after the kernel says the cell is done, then
carries on without them, silently: on a loaded machine a tutorial's printed line was
lost, and the test failed far from the cause ("no longer shows ...").  Here it waits a
minute, and says so if the outputs never come.
"""

WAIT_FOR_OUTPUTS = {"iopub_timeout": 60, "raise_on_iopub_timeout": True}
