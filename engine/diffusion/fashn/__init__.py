"""Our implementation of FASHN VTON v1.5's try-on model (Apache-2.0, fashn-AI/fashn-vton-1.5):
a pixel-space MMDiT that loads the published ``model.safetensors`` as it is (issue 35).

config.py  the sizes (FULL: the published model, 972M parameters; TINY: the tests')
layers.py  the blocks; model.py the module whose state dict is the file's key layout
loading.py the checked load (a bad key stops the worker naming it); sampler.py rectified flow
flops.py   the arithmetic of a pass and of an image (for the bench's share of the peak)
runner.py  photos in (letterboxed to the native frame), frame and person box out
pose.py    DWPose keypoints to the grey pose image the weights were trained on
"""
