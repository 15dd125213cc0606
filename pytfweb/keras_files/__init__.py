"""Keras model files (.keras, .h5) read and written without TensorFlow, above the layers they build:
model_files.py holds load_keras_model / save_keras, convert.py the `pytfweb convert` command.
Kept out of io/ because io sits below layers and these files sit above them."""
