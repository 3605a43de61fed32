"""Photos: what comes in before any generation, and what it can become.

- uploads.py: recording an upload (a presigned PUT or a photo inside the submit);
- images.py: checking, decoding and encoding images (the API's early rejection and the workflow);
- inputs.py: the one check every input image goes through, pinned by its size and ETag;
- analysis.py: what a photo is and what it rules out (plain data, computed by the engine);
- analysis_request.py: asking the imaging queue for that analysis and waiting a little;
- tone_match.py: whether a model swap can carry a photo's person to a model's skin tone.
"""
