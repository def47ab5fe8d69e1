"""Live pages: whether what a page shows has changed, answered to the page's polls in front of
Flask (`poll`: the signed paths a page watches, the versions read together, 304 while nothing
changed) and pushed over Server-Sent Events by the live process beside gunicorn (`stream`,
`python -m tichu_scorer.live.stream`), which reads the same versions."""
