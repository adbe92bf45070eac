"""SHA-256: Python's hashlib (OpenSSL), a maintained implementation."""

import hashlib


def sha256(msg):
    return hashlib.sha256(msg).digest()
