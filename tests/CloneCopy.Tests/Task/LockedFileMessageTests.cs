using System;
using System.Collections.Concurrent;
using System.IO;
using System.Linq;
using System.Threading;
using CloneCopy.Engine;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Build.Utilities;
using Xunit;

namespace CloneCopy.Tests.Task;

/// <summary>
/// On Windows, MSBuild's Copy ends MSB3026 and MSB3027 with "The file is locked by: ..." naming the processes that hold
/// the destination (LockCheck, asked about the destination's full path; MSB3021 quotes only the exception). It is the
/// one clue a user has for a build that retries on an exe still running. Here and under Wine the real answer is empty,
/// so the question is answered by the test (<see cref="ILockedFileMessage"/>), differently for each file of the pair:
/// the messages show which file was asked about.
/// </summary>
public sealed class LockedFileMessageTests : IDisposable
{
    private const string DestinationHolder = "The file is locked by: \"App (4242)\"";
    private const string SourceHolder = "The file is locked by: \"Indexer (17)\"";

    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-locked").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_destination_held_by_another_process_is_named_in_MSB3026_and_MSB3027_and_MSB3021_quotes_only_the_error()
    {
        string source = TestFiles.Write(Path.Combine(_directory, "obj", "App.exe"), 1000);
        string destination = Path.Combine(_directory, "bin", "App.exe");
        var answers = new AnsweringLockedFiles((source, SourceHolder), (destination, DestinationHolder));
        var engine = new TestBuildEngine();
        var task = new CloneCopy.Copy
        {
            BuildEngine = engine,
            SourceFiles = [new TaskItem(source)],
            DestinationFiles = [new TaskItem(destination)],
            Retries = 2,
            RetryDelayMilliseconds = 1,
            Transfer = new HeldDestination(),
            LockedFiles = answers,
        };

        Assert.False(task.Execute());

        string sharingViolation = HeldDestination.Message(destination);
        Assert.Equal(
            [
                $"MSB3026: Could not copy \"{source}\" to \"{destination}\". Beginning retry 1 in 1ms. {sharingViolation} {DestinationHolder}",
                $"MSB3026: Could not copy \"{source}\" to \"{destination}\". Beginning retry 2 in 1ms. {sharingViolation} {DestinationHolder}",
            ],
            engine.Warnings.Select(w => $"{w.Code}: {w.Message}"));
        Assert.Equal(
            [
                $"MSB3027: Could not copy \"{source}\" to \"{destination}\". Exceeded retry count of 2. Failed. {DestinationHolder}",
                $"MSB3021: Unable to copy file \"{source}\" to \"{destination}\". {sharingViolation}",
            ],
            engine.Errors.Select(e => $"{e.Code}: {e.Message}"));
        Assert.Equal([destination, destination, destination], answers.Asked); // once for each MSB3026, once for MSB3027
    }

    /// <summary>A destination Windows refuses to open for writing: another process (the app still running) holds it.</summary>
    private sealed class HeldDestination : IFileTransfer
    {
        private const int SharingViolation = unchecked((int)0x80070020);

        public static string Message(string path) => $"The process cannot access the file '{path}' because it is being used by another process.";

        public TransferResult Transfer(string sourcePath, string destinationPath, CancellationToken cancellationToken) =>
            throw new IOException(Message(destinationPath), SharingViolation);
    }

    /// <summary>Answers "who holds this file?" per path, as Windows' Restart Manager would, and records every path asked about.</summary>
    private sealed class AnsweringLockedFiles : ILockedFileMessage
    {
        private readonly (string Path, string Sentence)[] _holders;

        public AnsweringLockedFiles(params (string Path, string Sentence)[] holders) => _holders = holders;

        public ConcurrentQueue<string> Asked { get; } = new();

        public string For(string path)
        {
            Asked.Enqueue(path);
            return _holders.FirstOrDefault(h => string.Equals(h.Path, path, StringComparison.Ordinal)).Sentence ?? string.Empty;
        }
    }
}
