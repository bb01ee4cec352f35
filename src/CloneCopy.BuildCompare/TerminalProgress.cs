using System;
using System.Diagnostics;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;
using Spectre.Console;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The terminal display: a spinner line with the current build ("build 3 of 10: CloneCopy, 12.4 s") that ticks
/// while the build runs, and a line per finished build above it.
/// </summary>
public sealed class TerminalProgress : IProgressDisplay
{
    private readonly Stopwatch _current = new();
    private string _status = "starting";

    public async Task<T> RunAsync<T>(Func<Task<T>> work)
    {
        T result = default!;
        await AnsiConsole.Status().Spinner(Spinner.Known.Dots).StartAsync("starting", async context =>
        {
            using var ticks = new CancellationTokenSource();
            var ticker = Task.Run(async () =>
            {
                while (!ticks.IsCancellationRequested)
                {
                    string elapsed = _current.IsRunning ? string.Create(CultureInfo.InvariantCulture, $", {_current.Elapsed.TotalSeconds:0.0} s") : string.Empty;
                    context.Status(Markup.Escape(_status + elapsed));
                    try
                    {
                        await Task.Delay(200, ticks.Token);
                    }
                    catch (OperationCanceledException)
                    {
                    }
                }
            });
            try
            {
                result = await work();
            }
            finally
            {
                await ticks.CancelAsync();
                await ticker;
            }
        });
        return result;
    }

    public void Step(string text)
    {
        _current.Reset();
        _status = text;
        AnsiConsole.MarkupLine($"[grey]{Markup.Escape(text)}[/]");
    }

    public void BuildStarting(string label, BuildWay way)
    {
        _status = $"{label}: {way.Title()}";
        _current.Restart();
    }

    public void BuildFinished(string label, BuildRun run)
    {
        _current.Reset();
        AnsiConsole.MarkupLine(string.Create(CultureInfo.InvariantCulture, $"{Markup.Escape(label)}: [bold]{Markup.Escape(run.Way.Title())}[/] {run.Seconds:0.00} s"));
    }
}
