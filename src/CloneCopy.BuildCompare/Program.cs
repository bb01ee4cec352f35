using System;
using System.CommandLine;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using CloneCopy.BuildCompare;

// clonecopy-compare: builds a solution or project clean N times with CloneCopy and N times with MSBuild's Copy,
// alternating, and writes a Markdown report, a JSON file with every build, and a chart. See docs/build-compare.md.
var targetArgument = new Argument<string>("solution-or-project")
{
    Description = "The .sln, .slnx or project file to build (or a folder holding exactly one).",
};
var buildArguments = new Argument<string[]>("build-arguments")
{
    Description = "Passed to every `dotnet build` unchanged, and to the one `dotnet restore` (-c as the property it sets); put them after --, e.g. -- -c Release -p:Foo=Bar.",
    Arity = ArgumentArity.ZeroOrMore,
};
var runsOption = new Option<int>("--runs", "-n")
{
    Description = "Timed clean builds each way (after one untimed warm-up each way).",
    DefaultValueFactory = _ => 5,
};
var outputOption = new Option<string?>("--output", "-o")
{
    Description = "Folder for report.md, results.json, builds.svg and the build logs. Default: beside the solution's folder, <folder>.clonecopy-compare, or the next free <folder>.clonecopy-compare-2, -3, ... once that holds a comparison.",
};
var forceOption = new Option<bool>("--force")
{
    Description = "Replace an earlier comparison in the --output folder (its report, JSON, chart and logs are deleted). Without it such a folder is refused.",
};
var sdkOption = new Option<string?>("--sdk")
{
    Description = "The CloneCopy package to inject: a .nupkg or an extracted package folder. Default: the package bundled with this tool.",
};
var plainOption = new Option<bool>("--plain")
{
    Description = "Plain progress lines instead of the live display (the default when CI=true or output is redirected).",
};

var root = new RootCommand("Compares clean build times of a solution with CloneCopy and with MSBuild's own Copy task, without changing the repository.")
{
    targetArgument, buildArguments, runsOption, outputOption, forceOption, sdkOption, plainOption,
};
root.SetAction(async (parse, cancellation) =>
{
    string target = parse.GetValue(targetArgument)!;
    int runs = parse.GetValue(runsOption);
    if (runs < 1)
    {
        Console.Error.WriteLine("clonecopy-compare: --runs must be at least 1.");
        return 2;
    }

    string fullTarget = Path.GetFullPath(target);
    string folder = File.Exists(fullTarget) ? Path.GetDirectoryName(fullTarget)! : fullTarget.TrimEnd(Path.DirectorySeparatorChar);
    string output = Path.GetFullPath(parse.GetValue(outputOption) ?? OutputFolder.DefaultFor(folder));
    bool interactive = !parse.GetValue(plainOption) && !Console.IsOutputRedirected
        && !string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase)
        && Environment.GetEnvironmentVariable("TF_BUILD") is null;
    var options = new CompareOptions(target, runs, output, parse.GetValue(sdkOption), parse.GetValue(buildArguments) ?? [], interactive, parse.GetValue(forceOption));
    return await CompareCommand.RunAsync(options, cancellation);
});

return await root.Parse(args).InvokeAsync();
