# generate.rb - write the built-in functions of the installed Puppet as one JSON document on
# stdout (run by generate.py, which puts it into the package).
#
# Signatures come from Puppet's own function loaders: every dispatch of a 4.x function (its
# Callable type, parameter names, block, declared return type), and for the functions that only
# exist in the 3.x API (lib/puppet/parser/functions) the arity Puppet wraps them with.  Docs are
# the function's documentation as Puppet ships it: the comment block above
# `create_function` for 4.x functions (what puppet-strings reads), the `:doc` option for 3.x ones.
#     ruby tools/functions/generate.rb > data.json
# Settings point at a throw-away directory: nothing under /etc/puppet is read or written.

$stdout.sync = true
OUT = $stdout.dup
$stdout.reopen($stderr)           # whatever Puppet prints must not end up in the JSON

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'

WORKDIR = Dir.mktmpdir('puppet-ls-functions-')
at_exit { FileUtils.rm_rf(WORKDIR) }
Puppet.initialize_settings(['--confdir', WORKDIR, '--vardir', File.join(WORKDIR, 'var'),
                            '--codedir', File.join(WORKDIR, 'code'), '--logdir', File.join(WORKDIR, 'log'),
                            '--rundir', File.join(WORKDIR, 'run')])

LIB = File.dirname(Puppet.method(:version).source_location[0])
API4_DIR = File.join(LIB, 'functions')
API3_DIR = File.join(LIB, 'parser', 'functions')

def names_in(dir)
  Dir.glob(File.join(dir, '*.rb')).map { |p| File.basename(p, '.rb') }
end

# The comment block right above `create_function`, without its YARD tags (examples, @since ...):
# the prose a reader of Puppet's function reference sees first.
def doc4(name)
  lines = File.readlines(File.join(API4_DIR, "#{name}.rb"))
  at = lines.index { |l| l =~ /\A\s*Puppet::Functions\.create_function/ } || 0
  block = []
  i = at - 1
  while i >= 0 && lines[i] =~ /\A\s*#/
    block.unshift(lines[i].sub(/\A\s*# ?/, '').rstrip)
    i -= 1
  end
  prose = []
  block.each do |l|
    break if l =~ /\A@\w+/
    prose << l
  end
  prose.join("\n").strip
end

def scrub(text)
  Puppet::Util::Docs.scrub(text.to_s).strip
end

# The first sentence of the first paragraph, on one line: what hover and completion show first.
def summary(doc)
  para = doc.split(/\n\s*\n/).first.to_s.gsub(/\s+/, ' ').strip
  m = para.match(/\A(.+?[.!?])(?=\s+[A-Z`*(\[]|\s*\z)/)
  m ? m[1] : para
end

# Puppet's type formatter, except that a function's local type aliases (`StringData`,
# `NameType`, `Pcore::MemberName` ...) are written out: they have no meaning outside the
# function.  Puppet's own aliases (`Data`, `RichData` ...) and object types keep their names.
class LocalAliasExpander < Puppet::Pops::Types::TypeFormatter
  def string_PTypeAliasType(t)
    if t.self_recursion? || Puppet::Pops::Loader::StaticLoader::BUILTIN_ALIASES.include?(t.name)
      @bld << t.name
    else
      append_string(t.resolved_type)
    end
  end
end

def type_text(t)
  LocalAliasExpander.new.string(t)
end

def signature_json(dispatch)
  callable = dispatch.type
  tuple = callable.param_types
  types = tuple.types
  lo = tuple.size_type.nil? ? types.size : tuple.size_type.from.to_i
  names = dispatch.parameter_names.map(&:to_s)
  params = names.each_with_index.map do |n, i|
    kind = if dispatch.last_captures_rest? && i == names.size - 1
             lo > i ? 'required_repeated' : 'repeated'
           elsif i < lo
             'required'
           else
             'optional'
           end
    { 'name' => n, 'type' => type_text(types[i] || types.last), 'kind' => kind }
  end
  out = { 'params' => params, 'block' => nil }
  bt = callable.block_type
  unless bt.nil?
    optional = bt.is_a?(Puppet::Pops::Types::POptionalType)
    inner = optional ? bt.optional_type : bt
    out['block'] = { 'name' => dispatch.block_name.to_s, 'type' => type_text(inner), 'optional' => optional }
  end
  out['return_type'] = callable.return_type.nil? ? nil : type_text(callable.return_type)
  out
end

env = Puppet::Node::Environment.create(:puppet_ls, [])
loaders = Puppet::Pops::Loaders.new(env)
functions = []
Puppet.override(loaders: loaders, current_environment: env) do
  loader = loaders.private_environment_loader
  api4 = names_in(API4_DIR)
  (api4 | names_in(API3_DIR)).sort.each do |name|
    load_error = nil
    begin
      fn = loader.load(:function, name)
    rescue StandardError, ScriptError => e
      # A function that needs a library this Puppet lacks (eyaml_lookup_key without
      # hiera_eyaml, scanf without the scanf gem) refuses to load: it is known by name and
      # doc, without signatures.
      fn = nil
      load_error = e.message.lines.first.to_s.strip
    end
    raise "Puppet cannot find the function #{name}" if fn.nil? && load_error.nil?
    sigs = fn.nil? ? [] : fn.class.dispatcher.signatures.reject(&:argument_mismatch_handler?).map { |d| signature_json(d) }
    if api4.include?(name)
      api = !fn.nil? && fn.class < Puppet::Functions::InternalFunction ? 'internal' : 'function'
      doc = doc4(name)
    else
      info = Puppet::Parser::Functions.environment_module(env).get_function_info(name.to_sym) ||
             (Puppet::Parser::Functions.function(name) && Puppet::Parser::Functions.environment_module(env).get_function_info(name.to_sym))
      api = '3x'
      doc = scrub(info && info[:doc])
    end
    entry = { 'name' => name, 'api' => api, 'summary' => summary(doc), 'doc' => doc, 'signatures' => sigs }
    entry['load_error'] = load_error unless load_error.nil?
    functions << entry
  end
end

OUT.write(JSON.generate({ 'puppet_version' => Puppet.version,
                          'generated_by' => 'tools/functions/generate.py',
                          'functions' => functions }))
