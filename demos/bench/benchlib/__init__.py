"""The `conduit bench` harness: glmark2 runs across native, virgl and Conduit."""
