"""The one exception type for bad user input: the CLI prints its message on one line, exit code 2."""


class InputError(ValueError):
    """Bad input from a user (a card, a hand, a variant, a switch, a count): message says what."""
