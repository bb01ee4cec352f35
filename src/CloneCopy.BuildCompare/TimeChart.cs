using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Security;
using System.Text;

namespace CloneCopy.BuildCompare;

/// <summary>
/// Every timed build's time, both ways, in the order they ran, over each way's min–max band and median line:
/// drift, an outlier, or two bands that overlap (no difference) show at a glance; the verdict and the Copy task's
/// time are written under it. SVG written directly: a drawing library would bring native code for every platform
/// into the tool's package.
/// </summary>
public static class TimeChart
{
    private const int Width = 800;
    private const int Height = 480;
    private const int Left = 70;
    private const int Right = 20;
    private const int Top = 50;
    private const int PlotHeight = 300;

    public static void Write(ComparisonResult result, string svgPath) => File.WriteAllText(svgPath, Svg(result));

    public static string Svg(ComparisonResult result)
    {
        var timed = result.Builds.Where(b => !b.WarmUp).ToList();
        double yMax = NiceCeiling(timed.Max(b => b.Seconds) * 1.1);
        int builds = timed.Max(b => b.Sequence);
        double plotWidth = Width - Left - Right;
        double X(int sequence) => Left + (plotWidth * (sequence - 0.5) / builds);
        double Y(double seconds) => Top + PlotHeight - (PlotHeight * seconds / yMax);

        var svg = new StringBuilder();
        svg.AppendLine(Inv($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" viewBox=\"0 0 {Width} {Height}\" font-family=\"sans-serif\" font-size=\"13\">"));
        svg.AppendLine(Inv($"<rect width=\"{Width}\" height=\"{Height}\" fill=\"white\"/>"));
        svg.AppendLine(Inv($"<text x=\"{Width / 2}\" y=\"28\" text-anchor=\"middle\" font-size=\"17\">{Escape($"Clean builds of {Path.GetFileName(result.Target)}")}</text>"));

        // Axes and a grid line per tick.
        for (int i = 0; i <= 4; i++)
        {
            double seconds = yMax * i / 4;
            svg.AppendLine(Inv($"<line x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{Y(seconds):0.0}\" y2=\"{Y(seconds):0.0}\" stroke=\"#ddd\"/>"));
            svg.AppendLine(Inv($"<text x=\"{Left - 8}\" y=\"{Y(seconds) + 4:0.0}\" text-anchor=\"end\">{seconds:0.##}</text>"));
        }

        for (int sequence = 1; sequence <= builds; sequence++)
        {
            svg.AppendLine(Inv($"<text x=\"{X(sequence):0.0}\" y=\"{Top + PlotHeight + 18}\" text-anchor=\"middle\">{sequence}</text>"));
        }

        svg.AppendLine(Inv($"<text x=\"{Left + (plotWidth / 2):0.0}\" y=\"{Top + PlotHeight + 36}\" text-anchor=\"middle\">build, in the order run</text>"));
        svg.AppendLine(Inv($"<text x=\"18\" y=\"{Top + (PlotHeight / 2)}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {Top + (PlotHeight / 2)})\">seconds</text>"));

        // Each way: its min–max band and median line behind, its builds as points (no line between them: separate builds, no trend measured).
        int legendY = Top + 8;
        foreach (var (way, colour) in new[] { (BuildWay.MSBuildCopy, "#1f77b4"), (BuildWay.CloneCopy, "#d62728") })
        {
            var stats = WayStatistics.Of(way, result.Builds);
            svg.AppendLine(Inv($"<rect x=\"{Left}\" width=\"{plotWidth:0.0}\" y=\"{Y(stats.MaxSeconds):0.0}\" height=\"{Math.Max(1, Y(stats.MinSeconds) - Y(stats.MaxSeconds)):0.0}\" fill=\"{colour}\" fill-opacity=\"0.12\"/>"));
            svg.AppendLine(Inv($"<line x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{Y(stats.MedianSeconds):0.0}\" y2=\"{Y(stats.MedianSeconds):0.0}\" stroke=\"{colour}\" stroke-dasharray=\"6 4\"/>"));
            foreach (var build in timed.Where(b => b.Way == way))
            {
                svg.AppendLine(Inv($"<circle cx=\"{X(build.Sequence):0.0}\" cy=\"{Y(build.Seconds):0.0}\" r=\"5\" fill=\"{colour}\"><title>{Escape(Inv($"build {build.Sequence}, {way.Title()}: {build.Seconds:0.00} s"))}</title></circle>"));
            }

            string legend = Inv($"{way.Title()} (median {stats.MedianSeconds:0.00} s, range {stats.MinSeconds:0.00}–{stats.MaxSeconds:0.00} s)");
            svg.AppendLine(Inv($"<circle cx=\"{Left + 14}\" cy=\"{legendY - 4}\" r=\"5\" fill=\"{colour}\"/><text x=\"{Left + 26}\" y=\"{legendY}\">{Escape(legend)}</text>"));
            legendY += 18;
        }

        // What the chart means, in words: the verdict, and the Copy task's time (what CloneCopy changes).
        int lineY = Top + PlotHeight + 62;
        foreach (string line in Wrap(result.Verdict.Sentence, 110).Concat(Wrap(CopyTaskLine(result), 110)))
        {
            svg.AppendLine(Inv($"<text x=\"{Left - 50}\" y=\"{lineY}\">{Escape(line)}</text>"));
            lineY += 17;
        }

        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private static string CopyTaskLine(ComparisonResult result) =>
        result.CloneCopy.MedianCopyTaskMilliseconds is double c && result.MSBuildCopy.MedianCopyTaskMilliseconds is double m
            ? Inv($"The Copy task (what CloneCopy changes): {c / 1000:0.00} s with CloneCopy, {m / 1000:0.00} s with MSBuild's Copy (medians).")
            : "The Copy task's time is not in the build logs.";

    /// <summary>1, 2 or 5 times a power of ten, at least <paramref name="value"/>: round axis ticks.</summary>
    private static double NiceCeiling(double value)
    {
        if (value <= 0)
        {
            return 1;
        }

        double power = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (double step in new[] { 1.0, 2.0, 4.0, 5.0, 10.0 })
        {
            if (step * power >= value)
            {
                return step * power;
            }
        }

        return 10 * power;
    }

    /// <summary>Splits a sentence at spaces into lines of at most <paramref name="width"/> characters (SVG text does not wrap).</summary>
    private static string[] Wrap(string text, int width)
    {
        var lines = new System.Collections.Generic.List<string>();
        var line = new StringBuilder();
        foreach (string word in text.Split(' '))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                lines.Add(line.ToString());
                line.Clear();
            }

            line.Append(line.Length > 0 ? " " : string.Empty).Append(word);
        }

        lines.Add(line.ToString());
        return [.. lines];
    }

    private static string Escape(string text) => SecurityElement.Escape(text);

    private static string Inv(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
