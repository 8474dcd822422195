# Stand-ins for the coverage reporters some corpora's spec helpers load (simplecov, coveralls):
# development-only gems Debian does not package (coveralls) or that would take over Ruby's
# Coverage, which the gold itself reads. They do nothing; the tests themselves are untouched.
module SimpleCov
  module Formatter
    class HTMLFormatter; end
    class MultiFormatter
      def self.new(*) = HTMLFormatter
    end
  end
  class << self
    attr_accessor :formatter, :formatters
    def start(*, &block) = nil
    def method_missing(*) = nil
    def respond_to_missing?(*) = true
  end
end

module Coveralls
  module SimpleCov
    class Formatter; end
  end
  def self.wear!(*) = nil
end

%w[simplecov coveralls].each { |f| $LOADED_FEATURES << "#{f}.rb" }
