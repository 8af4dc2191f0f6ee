# puppet_compile.rb - the installed Puppet's verdict on many small manifests, in one process.
#
# Reads one JSON string (a manifest) per line on stdin and answers each with one JSON line: the
# error of compiling it into a catalog ("compile", what a Puppet server does) and, when it
# compiles, the error of turning the catalog into resources ("ral", what the agent or `puppet
# apply` does next, where attribute values are checked); null where that step succeeds.  Each
# manifest gets a fresh compiler; settings live in a throw-away directory; nothing is applied.

$stdout.sync = true
OUT = $stdout.dup
$stdout.reopen($stderr)

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'

workdir = Dir.mktmpdir('puppet-ls-compile-')
at_exit { FileUtils.rm_rf(workdir) }
Puppet.initialize_settings(['--confdir', workdir, '--vardir', File.join(workdir, 'var'),
                            '--codedir', File.join(workdir, 'code'), '--logdir', File.join(workdir, 'log'),
                            '--rundir', File.join(workdir, 'run'), '--certname', 'differential'])
Puppet::Util::Log.level = :err
env = Puppet::Node::Environment.create(:differential, [])
facts = Puppet::Node::Facts.new('differential', {})
Puppet.override(current_environment: env, environments: Puppet::Environments::Static.new(env)) do
  $stdin.each_line do |line|
    src = JSON.parse(line)
    Puppet[:code] = src
    node = Puppet::Node.new('differential', environment: env, facts: facts)
    result = { 'compile' => nil, 'ral' => nil }
    begin
      catalog = Puppet::Parser::Compiler.compile(node)
      begin
        catalog.to_ral
      rescue StandardError => e
        result['ral'] = e.message
      end
    rescue StandardError => e
      result['compile'] = e.message
    end
    OUT.write(JSON.generate(result) + "\n")
    OUT.flush
  end
end
