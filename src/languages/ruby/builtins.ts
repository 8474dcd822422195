/**
 * Method names of the Ruby core classes code handles as plain data: String, Symbol, Array, Hash,
 * Integer, Float, Numeric, Comparable, Enumerable, Exception, nil/true, Proc, Method and Object
 * (public instance methods), and File, Dir, IO (their class methods), listed by Ruby 3.1.2
 * itself; less `name` (Symbol#name, new in 3.0, is rare beside the `name` of a project's own
 * objects). See LanguageSpec.builtinMethods.
 */
export const RUBY_BUILTIN_METHODS: ReadonlySet<string> = new Set(
  (
    "__id__ __send__ abs abs2 absolute_path absolute_path? all? allbits? angle any? anybits? append arg arity " +
    ("ascii_only? assoc at atime b backtrace backtrace_locations basename between? binding binread binwrite " +
      "birthtime bit_length ") +
    ("blockdev? bsearch bsearch_index bytes bytesize byteslice call capitalize capitalize! casecmp casecmp? " +
      "cause ceil center ") +
    "chain chardev? chars chdir children chmod chomp chomp! chop chop! chown chr chroot chunk " +
    ("chunk_while clamp class clear clone codepoints coerce collect collect! collect_concat combination compact " +
      "compact! compare_by_identity ") +
    ("compare_by_identity? concat conj conjugate copy_stream count crypt ctime curry cycle deconstruct " +
      "deconstruct_keys default default_proc ") +
    ("define_singleton_method delete delete! delete_at delete_if delete_prefix delete_prefix! delete_suffix " +
      "delete_suffix! denominator detect difference dig digits ") +
    "directory? dirname display div divmod downcase downcase! downto drop drop_while dump dup each each_byte " +
    ("each_char each_child each_codepoint each_cons each_entry each_grapheme_cluster each_index each_key " +
      "each_line each_pair each_slice each_value each_with_index each_with_object ") +
    ("empty? encode encode! encoding end_with? entries enum_for eql? equal? even? except exception executable? " +
      "executable_real? ") +
    "exist? exists? expand_path extend extname fdiv fetch fetch_values file? fill filter filter! filter_map find " +
    ("find_all find_index finite? first flat_map flatten flatten! floor fnmatch fnmatch? for_fd force_encoding " +
      "foreach freeze ") +
    "frozen? ftype full_message gcd gcdlcm getbyte getwd glob grapheme_clusters grep grep_v group_by grpowned? gsub " +
    "gsub! has_key? has_value? hash hex home i id2name identical? imag imaginary include? index infinite? " +
    ("inject insert inspect instance_eval instance_exec instance_of? instance_variable_defined? " +
      "instance_variable_get instance_variable_set instance_variables integer? intern intersect? intersection ") +
    "invert is_a? itself join keep_if key key? keys kind_of? lambda? last lazy lchmod lchown " +
    "lcm length lines link ljust lstat lstrip lstrip! lutime magnitude map map! match match? " +
    "max max_by member? merge merge! message method methods min min_by minmax minmax_by mkdir mkfifo " +
    "modulo mtime nan? negative? new next next! next_float nil? nobits? none? nonzero? numerator object_id " +
    "oct odd? one? open ord original_name owned? owner pack parameters partition path permutation phase " +
    "pipe pipe? polar pop popen positive? pow pred prepend prev_float private? private_methods product protected? " +
    ("protected_methods public? public_method public_methods public_send push pwd quo rassoc rationalize read " +
      "readable? readable_real? readlines ") +
    ("readlink real real? realdirpath realpath receiver rect rectangular reduce rehash reject reject! remainder " +
      "remove_instance_variable ") +
    ("rename repeated_combination repeated_permutation replace respond_to? reverse reverse! reverse_each rindex " +
      "rjust rmdir rotate rotate! round ") +
    ("rpartition rstrip rstrip! ruby2_keywords sample scan scrub scrub! select select! send set_backtrace " +
      "setbyte setgid? ") +
    ("setuid? shift shuffle shuffle! singleton_class singleton_method singleton_method_added singleton_methods " +
      "size size? slice slice! slice_after slice_before ") +
    ("slice_when socket? sort sort! sort_by sort_by! source_location split squeeze squeeze! start_with? stat " +
      "step sticky? ") +
    "store strip strip! sub sub! succ succ! sum super_method swapcase swapcase! symlink symlink? sysopen " +
    "taint tainted? take take_while tally tap then times to_a to_ary to_c to_enum to_f to_h " +
    "to_hash to_i to_int to_proc to_r to_s to_set to_str to_sym tr tr! tr_s tr_s! transform_keys " +
    ("transform_keys! transform_values transform_values! transpose truncate trust try_convert umask unbind " +
      "undump unicode_normalize unicode_normalize! unicode_normalized? union ") +
    "uniq uniq! unlink unpack unpack1 unshift untaint untrust untrusted? upcase upcase! update upto utime " +
    ("valid_encoding? value? values values_at world_readable? world_writable? writable? writable_real? write " +
      "yield yield_self zero? zip ") +
    ""
  )
    .split(" ")
    .filter(Boolean),
);
