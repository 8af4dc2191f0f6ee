# generate.rb - write the built-in resource types and metaparameters of the installed Puppet
# as one JSON document on stdout (run by generate.py, which puts it into the package).
#
# Everything comes from Puppet's own type API (Puppet::Type.loadall, attrclass, value_collection,
# title_patterns, ...), so that the data says what this Puppet really accepts rather than what
# its documentation says.  Run with the Ruby that the installed Puppet uses:
#     ruby tools/resource_types/generate.rb > data.json
# Settings point at a throw-away directory: nothing under /etc/puppet is read or written.

$stdout.sync = true
OUT = $stdout.dup
$stdout.reopen($stderr)           # whatever Puppet prints must not end up in the JSON

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'

WORKDIR = Dir.mktmpdir('puppet-ls-rtypes-')
at_exit { FileUtils.rm_rf(WORKDIR) }
Puppet.initialize_settings(['--confdir', WORKDIR, '--vardir', File.join(WORKDIR, 'var'),
                            '--codedir', File.join(WORKDIR, 'code'), '--logdir', File.join(WORKDIR, 'log'),
                            '--rundir', File.join(WORKDIR, 'run')])

# Where Puppet checks a value before it reaches a provider.  The default unsafe_validate of
# Puppet::Parameter / Puppet::Property checks the value collection; a type that defines its own
# `validate` block replaces that check with rules that are code, not data.
DEFAULT_VALIDATORS = [Puppet::Parameter, Puppet::Property].freeze

def scrub(text)
  return '' if text.nil?
  Puppet::Util::Docs.scrub(text.to_s).strip
end

# The first sentence of the first paragraph, on one line: what hover and completion show first.
def summary(doc)
  para = doc.split(/\n\s*\n/).first.to_s.gsub(/\s+/, ' ').strip
  m = para.match(/\A(.+?[.!?])(?=\s+[A-Z`*(\[]|\s*\z)/)
  m ? m[1] : para
end

def regex_json(re)
  flags = []
  flags << 'i' if (re.options & Regexp::IGNORECASE) != 0
  flags << 'm' if (re.options & Regexp::MULTILINE) != 0
  flags << 'x' if (re.options & Regexp::EXTENDED) != 0
  { 'source' => re.source, 'flags' => flags.join }
end

def attribute_json(klass, kind, namevars)
  vc = klass.value_collection
  values = []
  regexes = []
  vc.instance_variable_get(:@values).each_value do |v|
    if v.regex?
      regexes << regex_json(v.name).merge('required_features' => Array(v.required_features).map(&:to_s))
    else
      values << { 'name' => v.name.to_s, 'aliases' => v.aliases.map(&:to_s),
                  'required_features' => Array(v.required_features).map(&:to_s) }
    end
  end
  validator = klass.instance_method(:unsafe_validate).owner
  validation = if !DEFAULT_VALIDATORS.include?(validator) && !(validator < Puppet::Parameter && validator.name.to_s.start_with?('Puppet::Parameter::', 'Puppet::Property::'))
                 'custom'
               elsif values.empty? && regexes.empty?
                 'none'
               else
                 'values'
               end
  doc = scrub(klass.doc)
  out = { 'name' => klass.name.to_s, 'kind' => kind, 'summary' => summary(doc), 'doc' => doc,
          'namevar' => namevars.include?(klass.name), 'values' => values, 'regexes' => regexes,
          'validation' => validation,
          'required_features' => Array(klass.required_features).map(&:to_s) }
  out['boolean'] = true if klass <= Puppet::Parameter::Boolean
  out
end

def type_json(type)
  namevars = type.key_attributes
  attrs = []
  (type.key_attributes + type.properties.map(&:name) + type.parameters).uniq.each do |name|
    next if type.metaparam?(name)
    klass = type.attrclass(name)
    kind = type.attrtype(name) == :property ? 'property' : 'parameter'
    attrs << attribute_json(klass, kind, namevars)
  end
  patterns = type.title_patterns.map do |re, specs|
    regex_json(re).merge('attributes' => specs.map { |s| s.first.to_s })
  end
  features = type.features.sort.map { |f| { 'name' => f.to_s, 'doc' => summary(scrub(type.provider_feature(f).docs)) } }
  doc = scrub(type.doc)
  { 'name' => type.name.to_s, 'summary' => summary(doc), 'doc' => doc,
    'namevars' => namevars.map(&:to_s), 'title_patterns' => patterns,
    'isomorphic' => type.isomorphic?, 'features' => features,
    'providers' => type.providers.map(&:to_s).sort,
    'attributes' => attrs }
end

Puppet::Type.loadall
types = []
Puppet::Type.eachtype { |t| types << t }
types.sort_by! { |t| t.name.to_s }

metas = Puppet::Type.metaparams.map do |name|
  attribute_json(Puppet::Type.metaparamclass(name), 'metaparameter', [])
end

OUT.write(JSON.pretty_generate({
  'puppet_version' => Puppet.version,
  'generated_by' => 'tools/resource_types/generate.py',
  # Puppet::Type.validattr? takes `name` on every type, even where it is no attribute (exec,
  # file, tidy): it stands for the namevar.
  'name_always_valid' => types.all? { |t| t.valid_parameter?(:name) },
  'metaparameters' => metas,
  'types' => types.map { |t| type_json(t) },
}))
OUT.write("\n")
