using System;
using System.Globalization;
using System.IO;
using System.Threading.Tasks;

namespace CloneCopy.BuildCompare;

/// <summary>One line per step and per finished build, for CI logs and redirected output (no cursor movement, no colour).</summary>
public sealed class PlainProgress(TextWriter output) : IProgressDisplay
{
    public Task<T> RunAsync<T>(Func<Task<T>> work) => work();

    public void Step(string text) => output.WriteLine($"clonecopy-compare: {text}");

    public void BuildStarting(string label, BuildWay way) => output.WriteLine($"clonecopy-compare: {label}: {way.Title()} ...");

    public void BuildFinished(string label, BuildRun run) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"clonecopy-compare: {label}: {run.Way.Title()} {run.Seconds:0.00} s"));
}
