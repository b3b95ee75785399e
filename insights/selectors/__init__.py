"""One selector per block of the owner's view, each a fixed number of queries whatever the data."""
