"""The generative engine for GPU imaging workers (issue 21): latent diffusion with diffusers and
torch, which live in the imaging worker's own environment (.venv-imaging, requirements-imaging.txt).

Importing this package imports nothing heavy: torch and diffusers are imported by the modules that
run models, inside the imaging worker only. `engine.diffusion.weights` is plain Python (the
checkpoints' manifest and its sha256 check).
"""
