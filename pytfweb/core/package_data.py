"""Reading a data file that ships inside the package (shaders, the backends' JS helpers) beside the
module that reads it: from the disk in a checkout or a wheel, from the zip in a page, where the
package is imported from the bundle on sys.path (host/bundle.py) and a module's __file__ is a path
inside that zip."""
import os


def beside(module_file, name):
    """The text of the file `name` in the folder of `module_file` (a module's __file__)."""
    return read_text(os.path.join(os.path.dirname(module_file), name))


def read_text(path):
    """The text of a package file at `path` (on disk, or a path inside the zip the package came from)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        import zipimport
        try:
            # a zipimporter made for a folder inside the zip finds the zip and reads any member by path
            return zipimport.zipimporter(os.path.dirname(path)).get_data(path).decode("utf-8")
        except (zipimport.ZipImportError, OSError):
            pass
        raise
