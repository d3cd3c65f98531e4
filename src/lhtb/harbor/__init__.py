"""Harbor interoperability: lhtb's tasks exported for stock Harbor, and job results in either's layout."""
