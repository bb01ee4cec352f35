using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Loader;
using Microsoft.Build.Execution;
using Microsoft.Build.Framework;
using Microsoft.Build.Logging;

// Usage: MSBuild18Host --sdk <.NET SDK folder> [--mt] [--no-restore] [--builds N] [-v:quiet|minimal|normal|detailed|diagnostic] [-clp:<console logger parameters>]
//                      [-p:Name=Value]... <project>
// Restores (unless --no-restore) and builds <project> N times (default 1) with Microsoft.Build's BuildManager in this one process, as MSBuild
// Server keeps one: before each build after the first it prints "MSBuild18Host: waiting before build N" and reads a line
// from standard input, so a test can change the machine in between. The log (detailed unless -v: says) goes to standard output. Exit 0
// when every build succeeded, 1 when one failed, 2 on a usage error.
string? sdk = null;
bool multiThreaded = false;
bool restore = true;
var verbosity = LoggerVerbosity.Detailed;
string? loggerParameters = null;
int builds = 1;
string? project = null;
var properties = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--sdk": sdk = args[++i]; break;
        case "--mt": multiThreaded = true; break;
        case "--no-restore": restore = false; break;
        case "--builds": builds = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
        case string level when level.StartsWith("-v:", StringComparison.Ordinal): verbosity = Enum.Parse<LoggerVerbosity>(level[3..], ignoreCase: true); break;
        case string parameters when parameters.StartsWith("-clp:", StringComparison.Ordinal): loggerParameters = parameters[5..]; break;
        case string property when property.StartsWith("-p:", StringComparison.Ordinal):
            string[] pair = property[3..].Split('=', 2);
            properties[pair[0]] = pair[1];
            break;
        default: project = Path.GetFullPath(args[i]); break;
    }
}

if (sdk is null || project is null || !File.Exists(Path.Combine(sdk, "MSBuild.dll")))
{
    Console.Error.WriteLine("usage: MSBuild18Host --sdk <.NET SDK folder holding MSBuild.dll> [--mt] [--no-restore] [--builds N] [-p:Name=Value]... <project>");
    return 2;
}

// The toolset a .NET SDK gives its MSBuild: the common targets and tasks, the SDK resolvers (the .NET SDK's for
// Microsoft.NET.Sdk, NuGet's for an <Sdk> with a version in global.json), found next to the MSBuild.dll the engine
// is told it runs as. The compiler and other tools the targets start need the dotnet that the SDK belongs to.
Environment.SetEnvironmentVariable("MSBUILD_EXE_PATH", Path.Combine(sdk, "MSBuild.dll"));
Environment.SetEnvironmentVariable("MSBuildExtensionsPath", sdk);
Environment.SetEnvironmentVariable("MSBuildSDKsPath", Path.Combine(sdk, "Sdks"));
Environment.SetEnvironmentVariable("DOTNET_HOST_PATH", Path.GetFullPath(Path.Combine(sdk, "..", "..", "dotnet")));

// As MSBuildLocator does for every program that hosts the engine: the SDK's own assemblies (NuGet's, which the engine
// asks for by name to read target frameworks) are found in its folder. The engine itself stays this process's 18.12.2.
AssemblyLoadContext.Default.Resolving += (context, name) =>
{
    string candidate = Path.Combine(sdk, name.Name + ".dll");
    return File.Exists(candidate) ? context.LoadFromAssemblyPath(candidate) : null;
};

Console.WriteLine($"MSBuild18Host: {RuntimeInformation.FrameworkDescription}, Microsoft.Build {InformationalVersion(typeof(BuildManager).Assembly)}, Microsoft.Build.Framework {InformationalVersion(typeof(ITask).Assembly)}, multithreaded {multiThreaded}");

bool allSucceeded = true;
for (int build = 1; build <= builds; build++)
{
    if (build > 1)
    {
        Console.WriteLine($"MSBuild18Host: waiting before build {build}");
        Console.Out.Flush();
        Console.ReadLine();
    }

    // As `msbuild -restore` does: the restore in a build session of its own (its evaluations are not the build's),
    // then the build, both through the one BuildManager of this process.
    var restoreProperties = new Dictionary<string, string?>(properties, StringComparer.OrdinalIgnoreCase) { ["MSBuildRestoreSessionId"] = Guid.NewGuid().ToString("D") };
    bool restored = !restore || Run(new BuildRequestData(project, restoreProperties, null, ["Restore"], null,
        BuildRequestDataFlags.ClearCachesAfterBuild | BuildRequestDataFlags.SkipNonexistentTargets | BuildRequestDataFlags.IgnoreMissingEmptyAndInvalidImports | BuildRequestDataFlags.FailOnUnresolvedSdk));
    bool built = restored && Run(new BuildRequestData(project, properties, null, ["Build"], null));
    Console.WriteLine($"MSBuild18Host: build {build}: {(built ? "succeeded" : "failed")}");
    allSucceeded &= built;

    // Where CloneCopy's tasks ran: an assembly this process loaded is a task that ran in it, not in a task host.
    foreach (Assembly loaded in AssemblyLoadContext.All.SelectMany(context => context.Assemblies).Where(a => a.GetName().Name == "CloneCopy"))
    {
        Console.WriteLine($"MSBuild18Host: CloneCopy loaded in this process from {loaded.Location}");
    }
}

return allSucceeded ? 0 : 1;

bool Run(BuildRequestData request)
{
    var parameters = new BuildParameters
    {
        Loggers = [new ConsoleLogger(verbosity) { Parameters = loggerParameters }],
        MultiThreaded = multiThreaded,
        MaxNodeCount = 1,
        EnableNodeReuse = false,
    };
    BuildResult result = BuildManager.DefaultBuildManager.Build(parameters, request);
    return result.OverallResult == BuildResultCode.Success;
}

static string? InformationalVersion(Assembly assembly) => assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
