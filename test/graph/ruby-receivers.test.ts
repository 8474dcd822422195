/**
 * Ruby receivers typed without a run (issue 24, Ruby call-edge recall on rake and thor): a method
 * that returns what it constructs (`def application; @application ||= Application.new; end`, or a
 * last expression `K.new`), `K[...]` where K's `[]` ends in `new(…)` (not where it looks one up),
 * a class declared in a `.thor` file (Ruby, as Thor loads it), the instance variables an rspec
 * example group's `before` block sets for its examples, a mixin's bare call to a method of the one
 * class that includes it (a module opened in several files too), `self.class.m`, a variable set
 * from a call or method chain (`@app = Rake.application`), blocks that rebind `self`
 * (`@app.instance_eval { options }`, `Class.new(Thor::Group) do help "x" end`), and a class's own methods (`def self.x`,
 * `class << self`) apart from its instances' (`shell` in an instance method is the mixin's, not `Base.shell`). A line marked `# calls: A, B` must have
 * edges to exactly those callees; `# calls: none` to none.
 */
import { describe, expect, it } from "vitest";
import { markedCalls } from "../support/marked-calls.ts";

const RUBY = `
//- lib/rake.rb
module Rake
  class Application
    def options
      1
    end
  end

  class FileList
    def self.[](*args)
      new(*args)
    end

    def to_a
      []
    end
  end

  class Task
    def self.[](name)
      Rake.application.lookup(name)
    end

    def invoke
      1
    end
  end

  class Job
    def invoke
      2
    end

    def to_a
      []
    end

    def options
      3
    end
  end

  class << self
    def application
      @application ||= Rake::Application.new
    end

    def fresh_app
      Application.new
    end

    def nothing
      @nothing ||= compute
    end
  end
end
//- lib/user.rb
require "rake"

class User
  def run
    Rake.application.options # calls: lib/rake.rb#Rake.Application.options, lib/rake.rb#Rake::application
    Rake.fresh_app.options # calls: lib/rake.rb#Rake.Application.options, lib/rake.rb#Rake::fresh_app
    Rake.nothing.options # calls: lib/rake.rb#Rake::nothing
  end

  def chain
    @app = Rake.application
    @app.options # calls: lib/rake.rb#Rake.Application.options
    app = Rake.fresh_app # calls: lib/rake.rb#Rake::fresh_app
    app.options # calls: lib/rake.rb#Rake.Application.options
  end

  def list
    fl = Rake::FileList["a.rb"]
    fl.to_a # calls: lib/rake.rb#Rake.FileList.to_a
    t = Rake::Task["x"]
    t.invoke # calls: none
  end
end
//- lib/thor/group.rb
class Thor
  class Group
    def self.help(shell)
      shell
    end
  end

  class Command
    def help
      1
    end
  end
end
//- spec/sandbox/group.thor
class MyCounter < Thor::Group
end
//- spec/group_spec.rb
describe MyCounter do
  it "helps" do
    MyCounter.help(1) # calls: lib/thor/group.rb#Thor.Group::help
  end
end
//- test/support/definitions.rb
module Definitions
  def write_access
    rakefile "task :a" # calls: test/helper.rb#TestCase.rakefile
    missing_here # calls: none
  end
end
//- test/helper.rb
require_relative "support/definitions"

class TestCase
  include Definitions

  def rakefile(text)
    text
  end
end

class Other
  def rakefile(text)
    text
  end

  def missing_here
    1
  end
end

class Third
  def missing_here
    2
  end
end
//- lib/tool/actions/create_file.rb
module Tool
  module Actions
    class CreateFile
    end
  end
end
//- lib/tool/actions.rb
module Tool
  module Shell
    def shell
      @shell ||= 1
    end
  end

  module Actions
    def inside
      shell # calls: lib/tool/actions.rb#Tool.Shell.shell
    end
  end
end
//- lib/tool/base.rb
module Tool
  module Base
    class << self
      def shell
        3
      end
    end
  end
end
//- lib/tool/app.rb
class App
  include Tool::Base
  include Tool::Shell
  include Tool::Actions

  def self.check?(x)
    x
  end

  def self.build
    self.check?(2) # calls: lib/tool/app.rb#App::check?
  end

  def show
    shell # calls: lib/tool/actions.rb#Tool.Shell.shell
  end

  def run
    self.class.check?(1) # calls: lib/tool/app.rb#App::check?
  end
end

class Gadget
  def self.check?(x)
    x
  end

  def shell
    2
  end
end
//- test/test_app.rb
require "rake"

class TestApp
  def test_display
    @app = Rake::Application.new
    @app.instance_eval { options } # calls: lib/rake.rb#Rake.Application.options
    @app.instance_eval do
      options # calls: lib/rake.rb#Rake.Application.options
    end
    options # calls: none
  end
end
//- spec/class_new_spec.rb
describe "a new Thor class" do
  it "declares" do
    Class.new(Thor::Group) do
      help "x" # calls: lib/thor/group.rb#Thor.Group::help
    end
  end
end
//- spec/task_spec.rb
require "rake"

describe Rake::Task do
  before do
    @task = Rake::Task.new
  end

  it "invokes" do
    @task.invoke # calls: lib/rake.rb#Rake.Task.invoke
  end
end
`;

describe("Ruby receivers typed without a run", () => {
  it("returned constructions, K[...] and an example group's instance variables", async () => {
    const { want, got } = await markedCalls(RUBY);
    expect(got).toEqual(want);
  });
});
