using System;
using System.Threading.Tasks;

namespace CloneCopy.BuildCompare;

/// <summary>Where the comparison says what it is doing: a live terminal display, or plain lines for CI logs.</summary>
public interface IProgressDisplay
{
    /// <summary>Runs the whole comparison inside the display (a live display needs to own the terminal meanwhile).</summary>
    Task<T> RunAsync<T>(Func<Task<T>> work);

    /// <summary>A step that is not a timed build (restore, warm-up, cleaning).</summary>
    void Step(string text);

    /// <summary>A build begins: <paramref name="label"/> is "build 3 of 10" or "warm-up".</summary>
    void BuildStarting(string label, BuildWay way);

    void BuildFinished(string label, BuildRun run);
}
