#!/usr/bin/ruby
# frozen_string_literal: false
#
# compile.rb - the Puppet side of the catalog differential (issue 16): compiles many classes
# with the real Puppet 7, in ONE Ruby process, and prints each catalog's resources as JSON.
#
# usage: ruby tools/catalog/compile.rb --modulepath DIRS --facts FACTS.json --node NAME [--timeout S] < CLASSES
#
# CLASSES: one class name a line on stdin. For each, a node named NAME with exactly the facts
# of FACTS.json (facter is never run, nothing leaves the machine) and the class as its only
# (ENC-style) class is compiled in an environment whose modulepath is DIRS; one JSON line
# per class is printed:
#   {"class": C, "ok": true, "resources": [{"type", "title", "exported", "container",
#     "parameters": {name: canonical text}}], "warnings": [...], "ms": ...}
#   {"class": C, "ok": false, "error": {"message", "file", "line"}, "ms": ...}
# Values are written in the canonical text of ../shared/conformance (Puppet's %p with a
# readable String and Sensitive), which puppet-ls's eval/conformance.py:canonical also writes.
# Strictness is Puppet 7's default (what `puppet apply` and a Puppet 7 server do).

$stdout.sync = true
OUT = $stdout.dup                 # our JSON only; anything Puppet prints goes to stderr
$stdout.reopen($stderr)

require 'json'
require 'tmpdir'
require 'timeout'
require 'optparse'

opts = { modulepath: [], facts: {}, node: 'node.example.com', timeout: 60.0, trusted: nil }
OptionParser.new do |o|
  o.banner = 'usage: compile.rb --modulepath DIRS --facts FACTS.json --node NAME [--trusted T.json] < classes'
  o.on('--modulepath DIRS') { |v| opts[:modulepath] = v.split(':').reject(&:empty?) }
  o.on('--facts FILE') { |v| opts[:facts] = JSON.parse(File.read(v)) }
  o.on('--trusted FILE') { |v| opts[:trusted] = JSON.parse(File.read(v)) }
  o.on('--node NAME') { |v| opts[:node] = v }
  o.on('--timeout S', Float) { |v| opts[:timeout] = v }
end.parse!(ARGV)

require 'puppet'

# Private settings directories: never read /etc/puppet, never write /var/cache/puppet.
WORKDIR = Dir.mktmpdir('catalog-compile-')
at_exit { FileUtils.rm_rf(WORKDIR) }
Puppet.initialize_settings([
  '--confdir', WORKDIR, '--vardir', File.join(WORKDIR, 'var'), '--codedir', File.join(WORKDIR, 'code'),
  '--logdir', File.join(WORKDIR, 'log'), '--rundir', File.join(WORKDIR, 'run'),
  '--certname', opts[:node],
])
Puppet[:strict] = :warning
Puppet[:strict_variables] = false

# Warnings of each compile, kept to be reported beside its catalog.
class CompileLogs
  attr_reader :entries
  def initialize; @entries = []; end
  def <<(msg); @entries << msg; end
end
Puppet::Util::Log.newdesttype :catalog_compile_logs do
  match 'CompileLogs'
  def initialize(c); @c = c; end
  def handle(msg); @c << msg; end
end
LOGS = CompileLogs.new
Puppet::Util::Log.newdestination(LOGS)
Puppet::Util::Log.level = :warning

SC = Puppet::Pops::Types::StringConverter.singleton

def quote(s)
  if s.each_char.any? { |c| c.ord < 0x20 }
    body = s.each_char.map do |c|
      case c
      when "\t" then '\\t'
      when "\n" then '\\n'
      when "\r" then '\\r'
      when '"' then '\\"'
      when '$' then '\\$'
      when '\\' then '\\\\'
      else c.ord < 0x20 ? format('\\u{%X}', c.ord) : c
      end
    end
    "\"#{body.join}\""
  else
    "'#{s.gsub('\\', '\\\\\\\\').gsub("'", "\\\\'")}'"
  end
end

# The canonical text of a catalog value (see the header).
def canon(v)
  case v
  when nil then 'undef'
  when :undef then 'undef'
  when :default then 'default'
  when String then quote(v)
  when Symbol then quote(v.to_s)
  when Integer, TrueClass, FalseClass then v.to_s
  when Float then SC.convert(v, '%p')
  when Array then "[#{v.map { |x| canon(x) }.join(', ')}]"
  when Hash then "{#{v.map { |k, x| "#{canon(k)} => #{canon(x)}" }.join(', ')}}"
  when Puppet::Resource then "#{v.type}[#{quote(v.title.to_s)}]"
  when Puppet::Pops::Types::PSensitiveType::Sensitive then "Sensitive(#{canon(v.unwrap)})"
  when Regexp then SC.convert(v, '%p')
  else
    begin
      SC.convert(v, '%p')
    rescue StandardError
      v.to_s
    end
  end
end

def error_of(e)
  h = { 'class' => e.class.name, 'message' => e.message.to_s }
  h['file'] = e.file if e.respond_to?(:file) && e.file
  h['line'] = e.line if e.respond_to?(:line) && e.line
  h
end

env = Puppet::Node::Environment.create(:production, opts[:modulepath], Puppet::Node::Environment::NO_MANIFEST)
trusted = opts[:trusted] || begin
  host, _, domain = opts[:node].partition('.')
  { 'authenticated' => 'remote', 'certname' => opts[:node], 'domain' => domain, 'hostname' => host,
    'extensions' => {}, 'external' => {} }
end

Puppet.override({ current_environment: env, environments: Puppet::Environments::Static.new(env) }, 'catalog differential') do
  $stdin.each_line do |line|
    cls = line.strip
    next if cls.empty?
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    LOGS.entries.clear
    out = { 'class' => cls }
    begin
      # deep copy: Puppet::Node::Facts#sanitize freezes what it is given
      facts = Puppet::Node::Facts.new(opts[:node], Marshal.load(Marshal.dump(opts[:facts])))
      node = Puppet::Node.new(opts[:node], environment: env, classes: [cls], facts: facts)
      node.fact_merge(facts)
      node.trusted_data = trusted
      catalog = Timeout.timeout(opts[:timeout]) { Puppet::Parser::Compiler.compile(node) }
      containers = {}
      # a contained class has two containers, its stage and the containing class: the latter is meant
      catalog.edges.each do |e|
        containers[e.target.ref] = e.source.ref unless containers[e.target.ref] && e.source.type.to_s == 'Stage'
      end
      out['ok'] = true
      out['resources'] = catalog.resources.map do |r|
        params = {}
        r.to_hash.each { |k, v| params[k.to_s] = canon(v) }
        { 'type' => r.type.to_s, 'title' => r.title.to_s, 'exported' => !!r.exported,
          'container' => containers[r.ref], 'parameters' => params }
      end
    rescue Exception => e # rubocop:disable Lint/RescueException
      raise if e.is_a?(Interrupt) || e.is_a?(SystemExit)
      out['ok'] = false
      out['error'] = error_of(e)
    end
    out['warnings'] = LOGS.entries.select { |m| m.level == :warning }.map { |m| m.message.to_s }.uniq.first(20)
    out['ms'] = ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000).round(1)
    OUT.puts(JSON.generate(out))
    OUT.flush
  end
end
