/** Method names of Python's built-in types; see LanguageSpec.builtinMethods. */
export const PYTHON_BUILTIN_METHODS: ReadonlySet<string> = new Set(
  // str / bytes
  (
    "capitalize casefold center count decode encode endswith expandtabs find format format_map index isalnum isalpha " +
    ("isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust " +
      "lower lstrip ") +
    ("maketrans partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split " +
      "splitlines ") +
    "startswith strip swapcase title translate upper zfill hex fromhex " +
    // list / tuple / set / dict
    "append clear copy extend insert pop remove reverse sort add difference difference_update discard intersection " +
    "intersection_update isdisjoint issubset issuperset " +
    "symmetric_difference symmetric_difference_update union update " +
    "fromkeys get items keys popitem setdefault values " +
    // files, io, regex matches, iterators, misc objects
    "close flush read readline readlines seek tell " +
    "truncate write writelines fileno isatty readable writable seekable " +
    "match search fullmatch findall finditer sub subn group groups groupdict span start end " +
    "send throw __enter__ __exit__ __iter__ __next__ __len__ __getitem__ __setitem__ __contains__ __call__ __init__ " +
    ("__repr__ __str__ __eq__ __hash__ acquire release wait notify notify_all set is_set put get_nowait " +
      "put_nowait qsize ") +
    "total_seconds isoformat strftime timestamp date time astimezone as_integer_ratio bit_length conjugate"
  ).split(/\s+/),
);
