using System;
using System.Text.RegularExpressions;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// What a user sees in a real terminal (a pty made by script(1)), where `dotnet build` uses the terminal
/// logger: at its default verbosity no messages at all, so CloneCopy's summary stays out of the way and
/// only warnings and errors (the CI guard, the link limit) appear; at -v:d the summary appears under each
/// project; with -tl:off (the classic console logger) it appears at the default verbosity.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed partial class TerminalLoggerTests
{
    private readonly LoopFilesystems _filesystems;
    private readonly PackedSdk _sdk;

    public TerminalLoggerTests(LoopFilesystems filesystems, PackedSdk sdk)
    {
        _filesystems = filesystems;
        _sdk = sdk;
    }

    [FilesystemFact]
    public void The_terminal_logger_at_its_default_verbosity_shows_no_summary()
    {
        string screen = InTerminal(NewRepository(FilesystemKind.Xfs), "build App/App.csproj");

        Assert.Contains("Build succeeded", screen);
        Assert.DoesNotMatch(SummaryLine(), screen);
    }

    [FilesystemFact]
    public void The_terminal_logger_at_detailed_verbosity_shows_each_projects_summary()
    {
        string screen = InTerminal(NewRepository(FilesystemKind.Xfs), "build App/App.csproj -v:d");

        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned .*\[Lib\]", screen);
        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned .*\[App\]", screen);
    }

    [FilesystemFact]
    public void The_terminal_logger_shows_the_guards_warning_at_its_default_verbosity()
    {
        string screen = InTerminal(NewRepository(FilesystemKind.Ext4), "build App/App.csproj -p:CloneCopyRequireClones=warning");

        Assert.Contains("warning CLC005", screen);
        Assert.DoesNotMatch(SummaryLine(), screen);
    }

    [FilesystemFact]
    public void The_console_logger_shows_each_projects_summary_at_its_default_verbosity()
    {
        string screen = InTerminal(NewRepository(FilesystemKind.Xfs), "build App/App.csproj -tl:off");

        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned .*\[App\]", screen);
    }

    [FilesystemFact]
    public void A_binary_log_keeps_every_summary_and_per_file_line()
    {
        TestRepository repository = NewRepository(FilesystemKind.Xfs);
        InTerminal(repository, "build App/App.csproj -bl:build.binlog");

        var (code, replay) = Dotnet.Run("msbuild build.binlog -v:diag -noconlog -flp:logfile=replay.log;v=diag", repository.Root, repository.NuGetPackages);
        string log = System.IO.File.ReadAllText(System.IO.Path.Combine(repository.Root, "replay.log"));

        Assert.True(code == 0, replay);
        Assert.Matches(@"CloneCopy: [1-9][0-9]* files? cloned .*\[App\]", log);
        Assert.Matches(@"CloneCopy: cloned "".*Lib\.dll"" \([0-9]+ bytes not written\)\.", log);
    }

    private TestRepository NewRepository(FilesystemKind kind) => TestRepository.AppWithLibrary(_filesystems.NewDirectory(kind, "terminal"), _sdk);

    /// <summary>
    /// Runs `dotnet ARGS` in a pseudo-terminal of 50 rows and 200 columns and returns what it drew, escapes
    /// removed. (A terminal without rows, as script(1) makes when it has no terminal itself, is taken by
    /// MSBuild for redirected output: then the classic console logger runs.)
    /// </summary>
    private static string InTerminal(TestRepository repository, string arguments)
    {
        string command = $"stty rows 50 cols 200; dotnet {arguments} -nologo -m:1";
        var (code, output) = Dotnet.Run("", repository.Root, repository.NuGetPackages, program: "script", programArguments: $"-qec \"{command}\" /dev/null");
        string screen = Escapes().Replace(output, string.Empty);
        Assert.True(code == 0, $"exit code {code}{Environment.NewLine}{screen}"); // the guard's warning mode too: it must not fail the build
        return screen;
    }

    [GeneratedRegex(@"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>]|\r")]
    private static partial Regex Escapes();

    [GeneratedRegex(@"CloneCopy: \d+ files? cloned")]
    private static partial Regex SummaryLine();
}
