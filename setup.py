"""Install the repository's top-level folders as one namespace: envs/ -> ultimata.envs, and so on.

The layout (envs/, agents/, training/, configs/ at the top) is the user's design card; generic names
like `envs` must not land in site-packages, so each folder is mapped under `ultimata`. Subpackages
are discovered, so a new game folder needs no edit here.
"""

from setuptools import find_packages, setup

FOLDERS = {"envs": "ultimata.envs", "agents": "ultimata.agents", "training": "ultimata.training",
           "configs": "ultimata.configs"}

packages = ["ultimata", *(f"ultimata.{p}" for p in find_packages("ultimata"))]
for folder, name in FOLDERS.items():
    packages += [name, *(f"{name}.{p}" for p in find_packages(folder))]

setup(packages=packages, package_dir={"ultimata": "ultimata", **{v: k for k, v in FOLDERS.items()}})
